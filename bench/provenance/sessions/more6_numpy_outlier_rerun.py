# %% c1
import numpy as np
response_ms = np.array([120, 95, 130, 2400, 110, 105, 98, 870, 140, 101, 99, 115])
# %% c2
def trimmed_mean(x, lo_pct=5, hi_pct=95):
    lo, hi = np.percentile(x, [lo_pct, hi_pct])
    keep = (x >= lo) & (x <= hi)
    return x[keep].mean(), int((~keep).sum())
# %% c3
avg, dropped = trimmed_mean(response_ms)
# %% c2
def trimmed_mean(x, lo_pct=10, hi_pct=80):
    lo, hi = np.percentile(x, [lo_pct, hi_pct])
    keep = (x >= lo) & (x <= hi)
    return x[keep].mean(), int((~keep).sum())
# %% c3
avg, dropped = trimmed_mean(response_ms)
# ask: avg
# ask: dropped
