# %% c1
def make_counter(start=0, step=1):
    count = start
    def bump():
        nonlocal count
        count += step
        return count
    return bump
# %% c2
start = 10
tick = make_counter(start, 5)
tick()
tick()
last = tick()
# ask: last
