# %% c1
import numpy as np
data = [4.0, -1.0, 7.5, 0.0, 3.2]
threshold = 2.5
# %% c2
a = np.array(data)
mask = a > threshold
kept = a[mask]
count = int(mask.sum())
# ask: kept
# ask: count
