# %% c1
trips = [
    ('mon', 320.0, 24.5),
    ('tue', 0.0, 0.0),
    ('wed', 145.0, 11.2),
    ('thu', 88.0, 0.0),
    ('fri', 410.0, 29.8),
]
fuel_price = 1.79
# %% c2
efficiency = {}
skipped = []
for day, km, litres in trips:
    try:
        efficiency[day] = round(km / litres * 1.0, 2)
    except ZeroDivisionError:
        skipped.append(day)
# %% c3
total_cost = round(sum(l for _, _, l in trips) * fuel_price, 2)
best_day = max(efficiency, key=efficiency.get)
# ask: best_day
# ask: efficiency['wed']
