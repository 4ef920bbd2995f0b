# %% c1
import pandas as pd
df = pd.DataFrame({'region': ['n', 's', 'n', 'e'], 'amount': [100, 50, 25, 80]})
region = 'n'
# %% c2
north_total = df.loc[df['region'] == region, 'amount'].sum()
counts = df['region'].value_counts()
n_regions = len(counts)
# ask: north_total
# ask: n_regions
