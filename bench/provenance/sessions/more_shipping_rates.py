# %% c1
rates = {'DE': 4.5, 'FR': 6.0, 'US': 15.0}
default_rate = 20.0
orders = [('DE', 2), ('JP', 1), ('US', 3), ('FR', 1)]
# %% c2
shipping = []
for country, boxes in orders:
    rate = rates.get(country, default_rate)
    shipping.append(rate * boxes)
total_shipping = sum(shipping)
# ask: total_shipping
# ask: shipping[1]
