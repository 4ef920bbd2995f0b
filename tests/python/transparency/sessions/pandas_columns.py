# Adding and changing columns: assign, loc, where, astype.
# %%
import pandas as pd
df = pd.DataFrame({"a": [1, 2, 3, 4], "b": [10.0, 20.0, 30.0, 40.0]})
df["c"] = df.a + df.b
df["flag"] = df["c"] > 20
df
# %%
df = df.assign(d=lambda x: x.a * 2, e=5)
df.loc[df.a > 2, "b"] = 0
df
# %%
df["a"] = df["a"].astype(float)
df.loc[0, "e"] = 99
df.dtypes
# %%
df["b"] = df["b"].where(df["b"] > 0, -1)
df
# %%
df[["a", "b"]] = df[["b", "a"]].to_numpy()
df
# %%
df.columns = [c.upper() for c in df.columns]
df.rename(columns={"A": "alpha"}).columns.tolist()
# %%
df.insert(1, "new", range(4))
df.iloc[:, :3]
