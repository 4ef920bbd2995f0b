# %% c1
inventory = {'apples': 10, 'pears': 4}
inventory['plums'] = 7
# %% c2
inventory['apples'] -= 3
restock = [k for k, v in inventory.items() if v < 5]
total_items = sum(inventory.values())
# ask: restock
# ask: total_items
# ask: inventory['apples']
