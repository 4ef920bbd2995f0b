# %% c1
def running_total(xs):
    total = 0
    for x in xs:
        total += x
        yield total
# %% c2
deposits = [100, 250, -80, 40]
goal = 300
history = list(running_total(deposits))
reached_at = next((i for i, t in enumerate(history) if t >= goal), None)
# ask: history[-1]
# ask: reached_at
