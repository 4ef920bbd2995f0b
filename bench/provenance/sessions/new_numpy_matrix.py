# %% c1
import numpy as np
weights = [[0.5, 0.2], [0.1, 0.9]]
x = [2.0, 3.0]
bias = 1.0
# %% c2
W = np.array(weights)
v = np.array(x)
out = W @ v + bias
score = float(out.sum())
# ask: out
# ask: score
