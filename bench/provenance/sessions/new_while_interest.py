# %% c1
balance = 1000.0
rate = 0.05
target = 1500.0
# %% c2
years = 0
while balance < target:
    balance *= 1 + rate
    years += 1
final = round(balance, 2)
# ask: years
# ask: final
