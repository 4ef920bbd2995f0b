# %% c1
import pandas as pd
bookings = pd.DataFrame([
    {'guest': 'Okafor', 'room': 'double', 'nights': 3, 'rate': 120.0, 'channel': 'direct'},
    {'guest': 'Lindqvist', 'room': 'single', 'nights': 1, 'rate': 85.0, 'channel': 'ota'},
    {'guest': 'Moreau', 'room': 'suite', 'nights': 2, 'rate': 260.0, 'channel': 'ota'},
    {'guest': 'Tanaka', 'room': 'double', 'nights': 5, 'rate': 110.0, 'channel': 'ota'},
    {'guest': 'Reyes', 'room': 'single', 'nights': 4, 'rate': 80.0, 'channel': 'direct'},
    {'guest': 'Novak', 'room': 'double', 'nights': 2, 'rate': 125.0, 'channel': 'direct'},
])
ota_commission = 0.15
# %% c2
bookings['revenue'] = bookings['nights'] * bookings['rate']
bookings['net'] = bookings['revenue'].where(bookings['channel'] == 'direct',
                                            bookings['revenue'] * (1 - ota_commission))
# %% c3
by_room = bookings.groupby('room')['net'].sum()
double_net = by_room['double']
avg_nights = bookings.groupby('channel')['nights'].mean()
# ask: double_net
# ask: avg_nights['direct']
