# %% c1
stock = {'apples': 12, 'pears': 3, 'plums': 0}
threshold = 5
order_size = 20
# %% c2
to_order = {}
for item, qty in stock.items():
    if qty < threshold:
        to_order[item] = order_size - qty
total_units = sum(to_order.values())
# ask: to_order['pears']
# ask: total_units
