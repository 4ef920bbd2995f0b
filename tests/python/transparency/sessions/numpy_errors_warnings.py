# numpy errors and warnings: casting, shapes, divide by zero, seterr.
# %%
import numpy as np
ints = np.arange(3)
ints *= 1.5
# %%
np.ones(3) + np.ones(4)
# %%
np.array([1.0, 0.0]) / 0
# %%
old = np.seterr(divide="raise")
np.array([1.0]) / 0
# %%
np.seterr(**old)
np.log(np.array([0.0, 1.0]))
# %%
np.ones((2, 2))[5]
# %%
with np.errstate(all="ignore"):
    quiet = np.sqrt(np.array([-1.0, 4.0]))
quiet
