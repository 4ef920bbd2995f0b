# %% c1
budget = 500
expenses = {'food': 220, 'fun': 90, 'travel': 150}
# %% c2
spent = sum(expenses.values())
left = budget - spent
status = 'ok' if left >= 0 else 'over'
# %% c1
budget = 450
expenses = {'food': 220, 'fun': 90, 'travel': 150}
# %% c2
spent = sum(expenses.values())
left = budget - spent
status = 'ok' if left >= 0 else 'over'
# ask: left
# ask: status
