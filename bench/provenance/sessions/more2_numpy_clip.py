# %% c1
import numpy as np
values = np.array([3.0, -1.0, 7.5, 12.0, 0.5])
low = 0.0
high = 10.0
# %% c2
clipped = np.clip(values, low, high)
n_changed = int((clipped != values).sum())
mean_clipped = clipped.mean()
# ask: n_changed
# ask: mean_clipped
