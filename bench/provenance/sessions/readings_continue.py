# %% c1
readings = [12.1, None, 13.4, -999, 12.9]
# %% c2
valid = []
for r in readings:
    if r is None:
        continue
    if r == -999:
        continue
    valid.append(r)
avg = sum(valid) / len(valid)
# ask: avg
# ask: valid
