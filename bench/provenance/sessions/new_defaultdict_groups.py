# %% c1
from collections import defaultdict
sales = [('north', 120), ('south', 80), ('north', 45), ('east', 200), ('south', 30)]
# %% c2
by_region = defaultdict(list)
for region, amount in sales:
    by_region[region].append(amount)
totals = {r: sum(v) for r, v in by_region.items()}
best = max(totals, key=totals.get)
# ask: totals['north']
# ask: best
