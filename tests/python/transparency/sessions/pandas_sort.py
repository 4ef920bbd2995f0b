# sort_values, sort_index, nlargest, rank.
# %%
import numpy as np
import pandas as pd
df = pd.DataFrame({"name": ["d", "a", "c", "b", "e"], "score": [3, 1, np.nan, 3, 2], "age": [30, 25, 35, 20, 40]})
df.sort_values(["score", "name"], ascending=[False, True])
# %%
df.sort_values("score", na_position="first")
# %%
df.sort_index(ascending=False)
# %%
df.nlargest(2, "age"), df.nsmallest(1, "score")
# %%
df["rank"] = df["score"].rank(method="min")
df
# %%
df.sort_values("nonexistent")
