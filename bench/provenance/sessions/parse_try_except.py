# %% c1
raw = ['12', '7', 'n/a', '30']
# %% c2
parsed = []
errors = 0
for s in raw:
    try:
        parsed.append(int(s))
    except ValueError:
        errors += 1
total = sum(parsed)
# ask: total
# ask: errors
