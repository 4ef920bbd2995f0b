# %% c1
readings_c = [21.5, 19.0, 25.3, 30.1]
offset = 32
# %% c2
def to_f(c):
    return c * 9 / 5 + offset
readings_f = [to_f(c) for c in readings_c]
hot_days = sum(1 for f in readings_f if f > 80)
# ask: readings_f[2]
# ask: hot_days
