# %% c1
routes = [
    {'via': 'ring road', 'minutes': 34, 'cost': 4.20, 'mode': 'car'},
    {'via': 'tram 4', 'minutes': 41, 'cost': 2.80, 'mode': 'transit'},
    {'via': 'express bus', 'minutes': 29, 'cost': 3.50, 'mode': 'transit'},
    {'via': 'canal path', 'minutes': 38, 'cost': 0.0, 'mode': 'bike'},
    {'via': 'city centre', 'minutes': 47, 'cost': 5.10, 'mode': 'car'},
]
no_car = True
max_minutes = 40
# %% c2
allowed = [r for r in routes if r['minutes'] <= max_minutes and not (no_car and r['mode'] == 'car')]
fastest = min(allowed, key=lambda r: r['minutes'])
cheapest = min(allowed, key=lambda r: (r['cost'], r['minutes']))
# %% c3
fastest_via = fastest['via']
weekly_cost = round(cheapest['cost'] * 10, 2)
# ask: fastest_via
# ask: weekly_cost
