# merge, concat and join of DataFrames.
# %%
import pandas as pd
left = pd.DataFrame({"key": ["a", "b", "c"], "lval": [1, 2, 3]})
right = pd.DataFrame({"key": ["b", "c", "d"], "rval": [20, 30, 40]})
pd.merge(left, right, on="key")
# %%
pd.merge(left, right, on="key", how="outer", indicator=True)
# %%
left.merge(right, how="left", on="key").fillna({"rval": 0})
# %%
pd.concat([left, left], ignore_index=True)
# %%
left.set_index("key").join(right.set_index("key"), how="inner")
# %%
pd.merge(left, right, left_on="lval", right_on="rval")
# %%
pd.merge(left, right, on="missing_key")
