# %% c1
def chunks(xs, n):
    for i in range(0, len(xs), n):
        yield xs[i:i + n]
# %% c2
items = [1, 2, 3, 4, 5]
size = 2
batches = list(chunks(items, size))
odd_squares = sum(x * x for x in items if x % 2)
# ask: batches
# ask: odd_squares
