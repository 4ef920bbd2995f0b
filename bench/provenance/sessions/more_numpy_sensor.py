# %% c1
import numpy as np
readings = [12.1, 11.8, 35.0, 12.4, 12.0, 11.9]
max_jump = 5.0
# %% c2
arr = np.array(readings)
diffs = np.abs(np.diff(arr))
spikes = int((diffs > max_jump).sum())
median = float(np.median(arr))
# ask: spikes
# ask: median
