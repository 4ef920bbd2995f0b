# %% c1
temps = [18.5, 21.0, 25.5, 30.2, 17.8, 23.4]
hot_limit = 25
cold_limit = 15
# %% c2
hot_days = [t for t in temps if t > hot_limit]
any_cold = any(t < cold_limit for t in temps)
all_positive = all(t > 0 for t in temps)
mild = [round(t) for t in temps if cold_limit <= t <= hot_limit]
# ask: hot_days
# ask: any_cold
# ask: mild
