# %% c1
warehouse = [
    {'aisle': 'A', 'shelves': [
        {'bin': 'A1', 'items': [('tape', 14), ('glue', 3)]},
        {'bin': 'A2', 'items': [('staples', 40)]},
    ]},
    {'aisle': 'B', 'shelves': [
        {'bin': 'B1', 'items': [('pens', 2), ('markers', 9), ('tape', 6)]},
        {'bin': 'B2', 'items': []},
    ]},
]
reorder_level = 5
# %% c2
low_stock = []
totals = {}
for aisle in warehouse:
    for shelf in aisle['shelves']:
        for name, qty in shelf['items']:
            totals[name] = totals.get(name, 0) + qty
            if qty < reorder_level:
                low_stock.append(f"{shelf['bin']}:{name}")
# %% c3
empty_bins = [sh['bin'] for a in warehouse for sh in a['shelves'] if not sh['items']]
tape_total = totals['tape']
# ask: tape_total
# ask: low_stock
