# %% c1
tiers = [(100, 0.05), (250, 0.10), (500, 0.15)]
cart_total = 300
# %% c2
rate = 0.0
for threshold, r in tiers:
    if cart_total >= threshold:
        rate = r
discount = cart_total * rate
to_pay = cart_total - discount
# ask: rate
# ask: to_pay
