# %% c1
import pandas as pd
df = pd.DataFrame({
    'city': ['Oslo', 'Rome', 'Cairo', 'Lima'],
    'temp': [4.0, 18.5, 27.0, 19.0],
    'rain': [True, False, False, True],
})
min_temp = 15
# %% c2
warm = df[(df['temp'] > min_temp) & ~df['rain']]
warm_cities = warm['city'].tolist()
avg_temp = df.loc[df['rain'], 'temp'].mean()
# ask: warm_cities
# ask: avg_temp
