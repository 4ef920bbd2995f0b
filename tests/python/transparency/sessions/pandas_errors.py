# Uncaught pandas errors: a missing column, a bad merge, a bad cast.
# %%
import pandas as pd
df = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
df["c"]
# %%
df.loc[5]
# %%
df["b"].astype(int)
# %%
df.a + df.b
# %%
pd.concat([df, pd.DataFrame({"a": [3]})]).shape
