# %% c1
import pandas as pd
cities = ['Oslo', 'Lima', 'Pune']
temps = [3.5, 18.2, 27.9]
# %% c2
df = pd.DataFrame({'city': cities, 'temp': temps})
warm = df[df['temp'] > 15]['city'].tolist()
mean_temp = df['temp'].mean()
# ask: warm
# ask: mean_temp
