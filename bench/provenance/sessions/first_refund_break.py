# %% c1
transactions = [120.0, -15.5, 300.0, -80.25, 42.0]
# %% c2
first_refund = None
for i, t in enumerate(transactions):
    if t < 0:
        first_refund = (i, t)
        break
# ask: first_refund
