# %% c1
expenses = [
    ('2024-03-01', 'food', 12.5),
    ('2024-03-02', 'transport', 3.2),
    ('2024-03-02', 'food', 8.0),
    ('2024-03-04', 'fun', 25.0),
    ('2024-03-05', 'transport', 3.2),
]
# %% c2
by_cat = {}
for day, cat, amount in expenses:
    by_cat[cat] = by_cat.get(cat, 0) + amount
# %% c2
by_cat = {}
for day, cat, amount in expenses:
    if day >= '2024-03-02':
        by_cat[cat] = by_cat.get(cat, 0) + amount
# %% c3
from collections import defaultdict
days_by_cat = defaultdict(list)
for day, cat, _ in expenses:
    days_by_cat[cat].append(day[-2:])
# ask: by_cat['food']
# ask: days_by_cat['transport']
