# numpy views share memory; slicing, reshape, fancy indexing copies.
# %%
import numpy as np
base = np.arange(10)
view = base[2:5]
view[:] = 0
base
# %%
stride = base[::3]
stride += 100
base, stride.base is base, np.shares_memory(base, stride)
# %%
fancy = base[[1, 2, 3]]
fancy[:] = -5
base, fancy
# %%
m = base.reshape(2, 5)
m[0, 0] = 42
base[0], m.flags["OWNDATA"], base.flags["OWNDATA"]
# %%
t = m.T
t[1, 0] = 7
m
# %%
copy = m.copy()
copy[:] = 0
m.sum(), copy.sum()
# %%
col = m[:, 1]
col *= 2
m
