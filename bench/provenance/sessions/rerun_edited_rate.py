# %% c1
rate = 0.1
base = 100
# %% c2
cost = base * (1 + rate)
# %% c1
rate = 0.2
base = 100
# %% c2
cost = base * (1 + rate)
# ask: cost
