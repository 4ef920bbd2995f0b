# pivot_table, crosstab, melt, stack/unstack.
# %%
import pandas as pd
long = pd.DataFrame({
    "store": ["A", "A", "B", "B", "A"],
    "month": ["jan", "feb", "jan", "feb", "jan"],
    "sales": [10, 12, 7, 9, 3],
})
wide = long.pivot_table(index="store", columns="month", values="sales", aggfunc="sum")
wide
# %%
pd.crosstab(long.store, long.month)
# %%
wide.reset_index().melt(id_vars="store", value_name="total")
# %%
wide.stack(), wide.T
# %%
long.pivot(index="store", columns="month", values="sales")
