# %% c1
expenses = {'hotel': 420.0, 'food': 180.5, 'train': 96.0, 'museum': 25.0}
budget = 700
# %% c2
spent = sum(expenses.values())
over = spent > budget
biggest_item = max(expenses, key=expenses.get)
share = {k: round(v / spent, 3) for k, v in expenses.items()}
# ask: spent
# ask: biggest_item
# ask: share['food']
