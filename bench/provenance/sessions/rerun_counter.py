# %% c1
counter = 0
step = 5
# %% c2
counter += step
# %% c2
counter += step
# ask: counter
