# %% c1
import pandas as pd
orders = pd.DataFrame([
    {'customer': 'acme', 'item': 'bolts', 'qty': 120, 'unit_price': 0.15},
    {'customer': 'zenith', 'item': 'nuts', 'qty': 300, 'unit_price': 0.05},
    {'customer': 'acme', 'item': 'washers', 'qty': 80, 'unit_price': 0.02},
    {'customer': 'bolt co', 'item': 'bolts', 'qty': 500, 'unit_price': 0.12},
    {'customer': 'zenith', 'item': 'bolts', 'qty': 40, 'unit_price': 0.15},
])
min_qty = 100
# %% c2
orders['total'] = orders['qty'] * orders['unit_price']
per_customer = orders.groupby('customer').agg(n=('item', 'count'), spend=('total', 'sum'))
big = orders[orders.qty > min_qty]
# %% c3
acme_spend = per_customer.loc['acme', 'spend']
big_items = sorted(big['item'].unique())
# ask: acme_spend
# ask: big_items
