# numpy arrays: creation, in-place arithmetic, broadcasting, reductions.
# %%
import numpy as np
a = np.arange(6).reshape(2, 3)
a
# %%
a += 1
a *= 2
a
# %%
b = a.astype(float) / 3
b.round(2), b.dtype, b.shape
# %%
a + np.array([10, 20, 30]), a.sum(axis=0), a.mean(), a.max(axis=1)
# %%
m = np.eye(3) * 2 + 1
np.linalg.inv(m).round(3), m @ np.ones(3)
# %%
np.where(a > 6, a, 0), np.argsort([3, 1, 2]), np.unique([3, 1, 3, 2], return_counts=True)
# %%
c = np.zeros(4, dtype=int)
c[[0, 2]] = 7
c[c == 0] = -1
c
# %%
print(np.array2string(np.linspace(0, 1, 5), precision=2))
