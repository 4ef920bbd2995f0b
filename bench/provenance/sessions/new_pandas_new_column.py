# %% c1
import pandas as pd
rows = [
    {'name': 'a', 'price': 10.0, 'qty': 3},
    {'name': 'b', 'price': 4.0, 'qty': 10},
    {'name': 'c', 'price': 25.0, 'qty': 1},
]
tax = 0.08
# %% c2
df = pd.DataFrame(rows)
df['revenue'] = df['price'] * df['qty'] * (1 + tax)
df = df.sort_values('revenue', ascending=False)
top = df.iloc[0]['name']
total_rev = round(df['revenue'].sum(), 2)
# ask: top
# ask: total_rev
