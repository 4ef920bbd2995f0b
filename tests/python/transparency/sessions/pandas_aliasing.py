# A DataFrame under two names, copies, and Series taken from it.
# `copied` is a copy taken before `same` (that is, df) got column y: truly
# stale; `same` and `col` share df's data: never stale.
# allow-warning: 3 copied
# %%
import pandas as pd
df = pd.DataFrame({"x": [1, 2, 3]})
same = df
copied = df.copy()
col = df["x"]
# %%
same["y"] = same["x"] * 10
df.columns.tolist(), copied.columns.tolist()
# %%
df.loc[0, "x"] = 100
col.tolist(), copied["x"].tolist()
# %%
frames = {"main": df}
frames["main"]["z"] = 0
df
# %%
def add_total(frame):
    frame["total"] = frame.sum(axis=1)
add_total(df)
same
