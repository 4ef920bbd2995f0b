# %% c1
import pandas as pd
df = pd.DataFrame({
    'city': ['Rome', 'Oslo', 'Rome', 'Oslo'],
    'temp': [21.0, 7.5, 23.0, 9.5],
})
threshold = 15.0
# %% c2
warm_rows = df[df['temp'] > threshold]
n_warm = len(warm_rows)
avg = df['temp'].mean()
# ask: n_warm
# ask: avg
