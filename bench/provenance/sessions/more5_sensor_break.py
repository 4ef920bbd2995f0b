# %% c1
readings = [21.5, 22.0, 23.4, 25.1, 27.8, 30.2, 29.9, 26.0]
limit = 27.0
warmup = 2
# %% c2
alarm_at = None
checked = 0
for i, r in enumerate(readings):
    if i < warmup:
        continue
    checked += 1
    if r > limit:
        alarm_at = i
        break
before_alarm = readings[:alarm_at]
avg_before = sum(before_alarm) / len(before_alarm)
# ask: alarm_at
# ask: checked
