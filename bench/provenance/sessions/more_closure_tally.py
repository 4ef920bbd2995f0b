# %% c1
def make_tally(start):
    count = start
    def add(n=1):
        nonlocal count
        count += n
        return count
    return add

start_value = 10
# %% c2
clicks = make_tally(start_value)
clicks()
clicks(5)
after = clicks(2)
# ask: after
