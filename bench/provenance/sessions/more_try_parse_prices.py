# %% c1
raw_prices = ['12.50', '8', 'n/a', '3.75', '', '10']
fallback = 0.0
# %% c2
parsed = []
bad = 0
for s in raw_prices:
    try:
        parsed.append(float(s))
    except ValueError:
        parsed.append(fallback)
        bad += 1
average = sum(parsed) / len(parsed)
# ask: bad
# ask: average
