# %% c1
ages = [34, 17, 52, 28]
min_age = 18
# %% c2
all_adults = all(a >= min_age for a in ages)
any_senior = any(a > 65 for a in ages)
n_minors = sum(1 for a in ages if a < min_age)
# ask: all_adults
# ask: any_senior
# ask: n_minors
