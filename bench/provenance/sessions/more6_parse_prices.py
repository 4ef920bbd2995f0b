# %% c1
raw_prices = ['$12.50', '7', 'n/a', '$3.99', '', 'free', '$20', '4.25']
tax = 0.08
# %% c2
clean = []
bad = []
for p in raw_prices:
    try:
        value = float(p.replace('$', ''))
    except ValueError:
        if p == 'free':
            value = 0.0
        else:
            bad.append(p)
            continue
    clean.append(value)
# %% c3
subtotal = sum(clean)
total_with_tax = round(subtotal * (1 + tax), 2)
n_bad = len(bad)
# ask: total_with_tax
# ask: n_bad
