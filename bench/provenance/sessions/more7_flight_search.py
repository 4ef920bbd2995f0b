# %% c1
flights = [
    {'code': 'LX318', 'dep': '07:10', 'price': 240, 'stops': 1},
    {'code': 'BA715', 'dep': '09:45', 'price': 189, 'stops': 0},
    {'code': 'U21422', 'dep': '12:30', 'price': 95, 'stops': 0},
    {'code': 'AF1115', 'dep': '15:05', 'price': 160, 'stops': 0},
    {'code': 'KL1002', 'dep': '18:20', 'price': 120, 'stops': 1},
]
budget = 200
earliest = '09:00'
# %% c2
def first_ok(options, max_price, after):
    for f in options:
        if f['dep'] < after:
            continue
        if f['price'] <= max_price and f['stops'] == 0:
            return f
    return None
# %% c3
pick = first_ok(flights, budget, earliest)
pick_code = pick['code'] if pick else 'none'
pick_price = pick['price'] if pick else None
# ask: pick_code
# ask: pick_price
