# %% c1
raw = ['12', 'n/a', '7', '', '30']
default = 0
# %% c2
parsed = []
for r in raw:
    try:
        parsed.append(int(r))
    except ValueError:
        parsed.append(default)
total = sum(parsed)
# ask: parsed[1]
# ask: total
