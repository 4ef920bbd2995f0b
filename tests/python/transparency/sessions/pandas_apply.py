# apply, map and user functions over rows and columns.
# %%
import pandas as pd
df = pd.DataFrame({"w": [1.0, 2.0, 3.0], "h": [2.0, 2.0, 4.0], "kind": ["s", "l", "s"]})
def area(row):
    return row["w"] * row["h"]
df["area"] = df.apply(area, axis=1)
df
# %%
df["kind"] = df["kind"].map({"s": "small", "l": "large"})
df["w"].apply(lambda v: v ** 2).tolist(), df.kind.tolist()
# %%
df.pipe(lambda d: d[d.area > 2]).agg({"w": "sum", "h": "max"})
# %%
calls = []
def logged(v):
    calls.append(v)
    return v + 1
df["h"].map(logged).tolist(), calls
# %%
df.apply(lambda col: col.dtype.kind).to_dict()
# %%
df.apply(lambda row: row["missing"], axis=1)
