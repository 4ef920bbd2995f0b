# %% c1
class Settings:
    pass

cfg = Settings()
cfg.target_temp = 24.0
cfg.tolerance = 1.5
cfg.min_humidity = 60
cfg.units = 'C'
readings = [(23.1, 72), (26.0, 58), (24.4, 65), (21.9, 61), (25.3, 55)]
# %% c2
def status(temp, hum):
    if abs(temp - cfg.target_temp) > cfg.tolerance:
        return 'heat' if temp < cfg.target_temp else 'vent'
    if hum < cfg.min_humidity:
        return 'mist'
    return 'ok'
# %% c3
actions = [status(t, h) for t, h in readings]
n_ok = actions.count('ok')
mist_count = actions.count('mist')
summary = f"{n_ok}/{len(readings)} ok (target {cfg.target_temp}{cfg.units})"
# ask: actions[1]
# ask: mist_count
