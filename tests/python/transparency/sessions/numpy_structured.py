# numpy reductions over axes, boolean masks, sorting, structured arrays.
# %%
import numpy as np
scores = np.array([[90, 80, 70], [60, 95, 85], [75, 65, 99]])
mask = scores > 80
mask, scores[mask], mask.sum(axis=1)
# %%
scores.sort(axis=1)
scores
# %%
people = np.array([("ann", 31, 1.6), ("bob", 25, 1.8)], dtype=[("name", "U10"), ("age", int), ("h", float)])
people["age"] += 1
people
# %%
np.sort(people, order="age")["name"], people.dtype.names
# %%
np.cumsum(scores, axis=0), np.diff([1, 4, 9, 16]), np.percentile([1, 2, 3, 4], 50)
# %%
np.set_printoptions(precision=2, suppress=True)
np.array([1 / 3, 2 / 3, 1e-8])
# %%
np.set_printoptions(precision=8, suppress=False)
np.array([1 / 3])
