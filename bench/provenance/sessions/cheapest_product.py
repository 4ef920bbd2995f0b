# %% c1
products = {'laptop': 1200, 'mouse': 25, 'monitor': 300}
# %% c2
cheapest = min(products, key=products.get)
priciest = max(products.values())
# ask: cheapest
# ask: priciest
