# %% c1
products = ['tea', 'coffee', 'milk']
prices = [3.5, 7.25, 1.2]
discount = 0.1
# %% c2
catalog = dict(zip(products, prices))
sale = {p: round(v * (1 - discount), 2) for p, v in catalog.items()}
coffee_sale = sale['coffee']
cheapest = min(sale, key=sale.get)
# ask: coffee_sale
# ask: cheapest
