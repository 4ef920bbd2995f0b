# %% c1
orders = [
    {'customer': 'kim', 'amount': 40, 'paid': True},
    {'customer': 'lee', 'amount': 25, 'paid': False},
    {'customer': 'kim', 'amount': 15, 'paid': True},
    {'customer': 'ola', 'amount': 60, 'paid': False},
]
# %% c2
paid_total = sum(o['amount'] for o in orders if o['paid'])
unpaid = [o['amount'] for o in orders if not o['paid']]
largest_unpaid = max(unpaid, default=0)
smallest_paid = min((o['amount'] for o in orders if o['paid']), default=None)
# ask: paid_total
# ask: largest_unpaid
# ask: smallest_paid
