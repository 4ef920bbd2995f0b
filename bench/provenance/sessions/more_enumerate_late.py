# %% c1
delivery_days = [2, 5, 1, 7, 3, 6]
limit = 4
# %% c2
late_idx = []
for i, days in enumerate(delivery_days):
    if days > limit:
        late_idx.append(i)
first_late = late_idx[0] if late_idx else None
# ask: late_idx
# ask: first_late
