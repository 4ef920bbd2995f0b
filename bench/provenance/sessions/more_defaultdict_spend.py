# %% c1
from collections import defaultdict
transactions = [
    ('2024-01-03', 'groceries', 54.20),
    ('2024-01-05', 'transport', 12.00),
    ('2024-01-09', 'groceries', 31.75),
    ('2024-02-01', 'rent', 900.00),
    ('2024-02-11', 'groceries', 48.10),
]
# %% c2
spend = defaultdict(float)
monthly = defaultdict(float)
for date, category, amount in transactions:
    spend[category] += amount
    month = date[:7]
    monthly[month] += amount
groceries = round(spend['groceries'], 2)
# ask: groceries
# ask: monthly['2024-01']
