# %% c1
lines = [('widget', 3, 2.50), ('gadget', 1, 12.00), ('bolt', 20, 0.15)]
vat = 0.2
# %% c2
net = 0
for item, qty, unit_price in lines:
    net += qty * unit_price
gross = round(net * (1 + vat), 2)
# %% c3
summary = f'{len(lines)} lines, net {net:.2f}, gross {gross:.2f}'
# ask: gross
# ask: summary
