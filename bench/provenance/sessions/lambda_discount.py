# %% c1
discount = 0.1
prices = [10.0, 24.5, 3.2]
# %% c2
apply = lambda p: round(p * (1 - discount), 2)
sale = list(map(apply, prices))
cheap = list(filter(lambda p: p < 10, sale))
# ask: sale
# ask: cheap
