# %% c1
prices = [12.0, 45.5, 7.25, 30.0]
tax_rate = 0.2
cutoff = 20
# %% c2
with_tax = list(map(lambda p: round(p * (1 + tax_rate), 2), prices))
expensive = list(filter(lambda p: p > cutoff, prices))
n_expensive = len(expensive)
# ask: with_tax[1]
# ask: expensive
# ask: n_expensive
