# A cleaning pipeline run top to bottom: each cell reads only the latest
# values (re-bound or changed in place), so nothing read is stale.
# %%
import numpy as np
import pandas as pd
df = pd.DataFrame({"a": [1.0, 2.0, np.nan, 4.0, 5.0], "b": [2.0, 1.0, 1.0, 8.0, 2.5]})
df
# %%
df = df.dropna()
df["ratio"] = df.a / df.b
df
# %%
df = df[df.ratio > 0.4].copy()
df["rank"] = df.ratio.rank()
# %%
stats = df.describe()
stats.loc["mean"]
# %%
df.sort_values("rank", inplace=True)
df.reset_index(drop=True, inplace=True)
df
# %%
top = df.head(2)
top
# %%
df["a"] = df["a"] * 10
df.a.sum()
