# Seeded random numbers, both generator APIs; shuffles and choices.
# %%
import numpy as np
rng = np.random.default_rng(0)
rng.normal(size=3).round(4)
# %%
rng.integers(0, 10, size=5), rng.choice(["a", "b", "c"], size=4)
# %%
np.random.seed(1)
np.random.rand(3).round(4)
# %%
arr = np.arange(8)
np.random.shuffle(arr)
arr
# %%
import random
random.seed(42)
random.sample(range(100), 5), random.random()
# %%
samples = rng.normal(loc=5, scale=2, size=1000)
round(float(samples.mean()), 3), round(float(samples.std()), 3)
