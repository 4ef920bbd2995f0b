# %% c1
transactions = [('dep', 500), ('wd', 120), ('wd', 60), ('dep', 75)]
fee = 1.5
# %% c2
balance = 0.0
history = []
for kind, amount in transactions:
    if kind == 'dep':
        balance += amount
    else:
        balance -= amount + fee
    history.append(balance)
lowest = min(history)
# ask: balance
# ask: history[1]
# ask: lowest
