# %% c1
temps = [21.5, 19.0, 25.3, 22.1]
# %% c2
temps.sort(reverse=True)
top2 = temps[:2]
middle = temps[len(temps) // 2]
# ask: top2
# ask: middle
