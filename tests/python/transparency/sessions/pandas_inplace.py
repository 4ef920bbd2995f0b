# inplace=True operations on a DataFrame.
# %%
import numpy as np
import pandas as pd
df = pd.DataFrame({"k": ["b", "a", "c", "a"], "v": [2.0, np.nan, 5.0, 1.0], "junk": 0})
frame = df
df.drop(columns=["junk"], inplace=True)
df
# %%
df.fillna(0, inplace=True)
df.rename(columns={"v": "value"}, inplace=True)
frame
# %%
df.sort_values("value", inplace=True)
df
# %%
df.reset_index(drop=True, inplace=True)
df.set_index("k", inplace=True)
df
# %%
df.drop_duplicates(inplace=True)
df.sort_index(inplace=True)
df
# %%
df.replace({"value": {0.0: -1.0}}, inplace=True)
df.clip(lower=0, inplace=True)
df
# %%
df.query("value > 1", inplace=True)
df, frame is df
