# %% c1
import pandas as pd
rows = [
    {'month': 'jan', 'store': 'A', 'units': 30},
    {'month': 'jan', 'store': 'B', 'units': 12},
    {'month': 'feb', 'store': 'A', 'units': 25},
    {'month': 'feb', 'store': 'B', 'units': 40},
]
price = 2.5
# %% c2
df = pd.DataFrame(rows)
df['revenue'] = df['units'] * price
by_store = df.groupby('store')['revenue'].sum()
store_b = by_store['B']
best_month = df.groupby('month')['units'].sum().idxmax()
# ask: store_b
# ask: best_month
