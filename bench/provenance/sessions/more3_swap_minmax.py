# %% c1
lo = 40
hi = 15
step = 5
# %% c2
if lo > hi:
    lo, hi = hi, lo
grid = list(range(lo, hi + 1, step))
midpoint = (lo + hi) / 2
# ask: grid
# ask: midpoint
