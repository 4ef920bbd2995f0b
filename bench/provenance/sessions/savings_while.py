# %% c1
balance = 1000.0
rate = 0.07
target = 2000.0
# %% c2
years = 0
while balance < target and years < 50:
    balance = balance * (1 + rate)
    years += 1
# ask: years
# ask: balance
