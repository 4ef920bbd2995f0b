# assert failures, SystemExit and KeyboardInterrupt raised by user code.
# %%
threshold = 3
assert threshold > 1
assert threshold > 5, f"threshold too small: {threshold}"
# %%
def check(xs):
    assert all(x >= 0 for x in xs), xs
check([1, -2])
# %%
import sys
sys.exit(3)
# %%
print("alive after sys.exit")
raise SystemExit("bye")
# %%
raise KeyboardInterrupt
# %%
print("still alive")
