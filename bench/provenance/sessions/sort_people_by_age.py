# %% c1
people = [('ana', 31), ('bo', 25), ('cy', 40)]
# %% c2
by_age = sorted(people, key=lambda p: p[1])
youngest = by_age[0][0]
names = sorted(name for name, _ in people)
# ask: youngest
# ask: names
