# %% c1
import numpy as np
samples = [2.0, 4.0, 4.0, 5.0, 7.0]
cutoff = 1.2
# %% c2
arr = np.array(samples)
z = (arr - arr.mean()) / arr.std()
outliers = int((np.abs(z) > cutoff).sum())
# ask: outliers
# ask: z
