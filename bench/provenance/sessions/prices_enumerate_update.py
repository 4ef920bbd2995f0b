# %% c1
prices = [100, 250, 80]
rate = 1.1
# %% c2
for i, p in enumerate(prices):
    prices[i] = round(p * rate, 2)
total = sum(prices)
# ask: total
# ask: prices[1]
