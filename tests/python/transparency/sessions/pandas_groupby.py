# groupby: sums, several aggregations, transform, size, value_counts.
# %%
import pandas as pd
sales = pd.DataFrame({
    "region": ["n", "s", "n", "e", "s", "n"],
    "product": ["x", "x", "y", "y", "x", "x"],
    "units": [3, 5, 2, 8, 1, 4],
    "price": [1.0, 1.5, 2.0, 2.5, 1.5, 1.0],
})
sales.groupby("region")["units"].sum()
# %%
sales.groupby(["region", "product"]).agg(total=("units", "sum"), avg_price=("price", "mean"))
# %%
sales["share"] = sales["units"] / sales.groupby("region")["units"].transform("sum")
sales.round(3)
# %%
sales.groupby("product").size(), sales["region"].value_counts()
# %%
sales.groupby("region").apply(lambda g: g["units"].max(), include_groups=False)
# %%
for name, group in sales.groupby("product"):
    print(name, group["units"].tolist())
# %%
sales.groupby("region")["price"].agg(["min", "max", "count"]).reset_index()
