# Chained assignment: the warnings pandas 2.2 decides by counting references.
# %%
import numpy as np
import pandas as pd
df = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [1, 2, 3]})
df["a"].fillna(0, inplace=True)
df
# %%
sub = df[df.b > 1]
sub["c"] = 1
sub
# %%
df["b"][0] = 100
df
# %%
df.loc[df.b > 1, "a"] = -1
df
# %%
s = df["a"]
s.replace(-1.0, -2.0, inplace=True)
df
# %%
df["b"].update(pd.Series([7], index=[2]))
df
