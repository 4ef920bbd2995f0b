# %% c1
raw_ages = ['34', 'n/a', '27', '', '41']
default_age = -1
# %% c2
ages = []
bad = 0
for s in raw_ages:
    try:
        ages.append(int(s))
    except ValueError:
        ages.append(default_age)
        bad += 1
valid = [a for a in ages if a >= 0]
mean_age = sum(valid) / len(valid)
# ask: bad
# ask: mean_age
