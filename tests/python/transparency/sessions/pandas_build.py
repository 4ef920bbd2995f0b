# Building DataFrames and looking at them.
# %%
import pandas as pd
df = pd.DataFrame({
    "city": ["Oslo", "Rome", "Lima", "Oslo", "Rome"],
    "year": [2020, 2020, 2021, 2021, 2021],
    "temp": [4.5, 18.2, 19.0, 5.1, 17.4],
})
df
# %%
df.head(2)
# %%
df.shape, list(df.columns), df.dtypes.to_dict()
# %%
df.describe()
# %%
df.info()
# %%
pd.DataFrame.from_records([(1, "a"), (2, "b")], columns=["n", "s"]).set_index("n")
# %%
s = pd.Series([3, 1, 2], index=list("abc"), name="vals")
s, s.sort_values().index.tolist()
# %%
display(df.tail(1))
print(df.to_string(index=False))
