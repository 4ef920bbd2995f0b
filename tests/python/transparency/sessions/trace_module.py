# The stdlib trace module (it sets and unsets sys.settrace itself).
# %%
import trace
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
tracer = trace.Trace(count=1, trace=0)
tracer.runfunc(collatz, 6)
# %%
counts = tracer.results().counts
name = collatz.__code__.co_filename
sorted((line, n) for (file, line), n in counts.items() if file == name)
# %%
import sys
sys.gettrace() is None
# %%
collatz(27)
