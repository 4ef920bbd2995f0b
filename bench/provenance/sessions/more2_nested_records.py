# %% c1
orders = [
    {'id': 1, 'items': [{'sku': 'a', 'qty': 2, 'price': 3.0}, {'sku': 'b', 'qty': 1, 'price': 10.0}]},
    {'id': 2, 'items': [{'sku': 'a', 'qty': 5, 'price': 3.0}]},
]
discount = 0.1
# %% c2
totals = {}
for o in orders:
    subtotal = sum(i['qty'] * i['price'] for i in o['items'])
    totals[o['id']] = subtotal * (1 - discount)
biggest = max(totals, key=totals.get)
# ask: totals[2]
# ask: biggest
