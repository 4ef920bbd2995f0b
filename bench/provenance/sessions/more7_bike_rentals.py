# %% c1
import pandas as pd
rides = pd.DataFrame({
    'station': ['Harbour', 'Park', 'Station', 'Harbour', 'Museum', 'Park', 'Station', 'Museum'],
    'minutes': [22, 48, 7, 35, 15, 62, 11, 28],
    'member': [True, False, True, True, False, False, True, True],
})
unlock_fee = 1.0
per_minute = 0.15
# %% c2
rides['cost'] = unlock_fee + rides['minutes'] * per_minute
rides.loc[rides['member'], 'cost'] = rides['minutes'] * per_minute
casual = rides[~rides['member']]
# %% c3
busiest = rides.groupby('station')['minutes'].sum().sort_values(ascending=False)
top_station = busiest.index[0]
priciest_casual = casual.sort_values('cost').iloc[-1]
priciest_cost = round(priciest_casual['cost'], 2)
# ask: top_station
# ask: priciest_cost
