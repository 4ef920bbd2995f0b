# %% c1
import numpy as np
heights = np.array([162, 175, 181, 158, 170, 199, 168])
cutoff = 2.0
# %% c2
mu = heights.mean()
sd = heights.std()
z = (heights - mu) / sd
outliers = heights[np.abs(z) > cutoff]
# %% c1
import numpy as np
heights = np.array([162, 175, 181, 158, 170, 199, 168])
cutoff = 1.5
# %% c2
mu = heights.mean()
sd = heights.std()
z = (heights - mu) / sd
outliers = heights[np.abs(z) > cutoff]
n_out = len(outliers)
# ask: n_out
# ask: outliers
