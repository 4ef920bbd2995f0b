# %% c1
import pandas as pd
results = pd.DataFrame({
    'runner': ['Kip', 'Sara', 'Jon', 'Mei', 'Luis', 'Ada'],
    'minutes': [148, 171, 202, 165, 190, 158],
    'age_group': ['30s', '20s', '40s', '30s', '40s', '20s'],
})
distance_km = 42.195
# %% c2
results['pace'] = results['minutes'] / distance_km
results['sub3'] = results['minutes'] < 180
ranked = results.sort_values('minutes').reset_index(drop=True)
podium = ranked.head(3)['runner'].tolist()
# %% c3
fourth = ranked.iloc[3]['runner']
groups = results[results.sub3]['age_group'].value_counts()
# ask: podium
# ask: groups['20s']
