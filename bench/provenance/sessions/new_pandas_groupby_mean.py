# %% c1
import pandas as pd
data = {
    'team': ['red', 'blue', 'red', 'blue', 'green'],
    'points': [10, 7, 4, 12, 9],
}
# %% c2
df = pd.DataFrame(data)
means = df.groupby('team')['points'].mean()
best_team = means.idxmax()
red_mean = means['red']
# ask: best_team
# ask: red_mean
