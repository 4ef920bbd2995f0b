# %% c1
import pandas as pd
records = {'team': ['a', 'b', 'a', 'b'], 'pts': [3, 1, 2, 5]}
# %% c2
df = pd.DataFrame(records)
totals = df.groupby('team')['pts'].sum()
best = totals.idxmax()
# ask: totals
# ask: best
