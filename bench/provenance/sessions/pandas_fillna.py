# %% c1
import pandas as pd
vals = [1.0, None, 3.0, None]
fill_value = 0.0
# %% c2
s = pd.Series(vals, dtype='float64')
filled = s.fillna(fill_value)
total = filled.sum()
n_missing = int(s.isna().sum())
# ask: total
# ask: n_missing
