# %% c1
PRICING = 'weekday'
hourly_rate = 2.5
daily_cap = 18.0
weekend_flat = 8.0
stays = [('car_a', 1.5), ('car_b', 4.0), ('car_c', 9.0), ('car_d', 0.25)]
# %% c2
import math

def fee(hours):
    if hours <= 0.5:
        return 0.0
    if PRICING == 'weekend':
        return weekend_flat
    billed = math.ceil(hours) * hourly_rate
    return min(billed, daily_cap)
# %% c3
fees = {plate: fee(h) for plate, h in stays}
takings = sum(fees.values())
car_c_fee = fees['car_c']
# %% c1
PRICING = 'weekday'
hourly_rate = 3.0
daily_cap = 18.0
weekend_flat = 8.0
stays = [('car_a', 1.5), ('car_b', 4.0), ('car_c', 9.0), ('car_d', 0.25)]
# %% c3
fees = {plate: fee(h) for plate, h in stays}
takings = sum(fees.values())
car_c_fee = fees['car_c']
# ask: takings
# ask: car_c_fee
