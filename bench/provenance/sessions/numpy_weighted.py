# %% c1
import numpy as np
values = [10.0, 20.0, 30.0]
weights = [0.2, 0.3, 0.5]
# %% c2
arr = np.array(values)
w = np.array(weights)
weighted = float(w @ arr)
normalized = arr / arr.sum()
# ask: weighted
# ask: normalized
