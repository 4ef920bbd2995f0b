# %% c1
import pandas as pd
orders = pd.DataFrame({'cust_id': [1, 2, 1, 3], 'amount': [50, 20, 30, 70]})
customers = pd.DataFrame({'cust_id': [1, 2, 3], 'country': ['FR', 'DE', 'FR']})
# %% c2
merged = orders.merge(customers, on='cust_id')
by_country = merged.groupby('country')['amount'].sum()
fr_total = int(by_country['FR'])
# ask: fr_total
