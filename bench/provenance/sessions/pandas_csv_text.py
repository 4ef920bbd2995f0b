# %% c1
import io
import pandas as pd
csv_text = 'item,qty,price\npen,3,1.5\nbook,1,12.0\n'
# %% c2
df = pd.read_csv(io.StringIO(csv_text))
df['cost'] = df['qty'] * df['price']
total_cost = df['cost'].sum()
# ask: total_cost
