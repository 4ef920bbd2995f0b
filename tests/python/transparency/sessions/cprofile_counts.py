# cProfile around user code: call counts of the user's functions.
# %%
import cProfile
import pstats
def leaf(n):
    return n * 2
def branch(n):
    return sum(leaf(i) for i in range(n))
profiler = cProfile.Profile()
profiler.enable()
branch(5)
branch(3)
profiler.disable()
stats = pstats.Stats(profiler)
sorted((func[2], cc, nc) for func, (cc, nc, tt, ct, callers) in stats.stats.items() if func[2] in ("leaf", "branch"))
# %%
profiler2 = cProfile.Profile()
result = profiler2.runcall(branch, 4)
s2 = pstats.Stats(profiler2)
result, sorted((func[2], nc) for func, (cc, nc, tt, ct, callers) in s2.stats.items() if func[2] in ("leaf", "branch"))
# %%
import sys
sys.getprofile() is None
