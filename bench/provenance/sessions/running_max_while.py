# %% c1
values = [3, 8, 1, 9, 4]
# %% c2
i = 0
running_max = values[0]
while i < len(values):
    if values[i] > running_max:
        running_max = values[i]
    i += 1
# ask: running_max
