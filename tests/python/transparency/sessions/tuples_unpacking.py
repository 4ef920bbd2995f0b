# Unpacking, swaps, starred targets and namedtuples.
# %%
from collections import namedtuple
Point = namedtuple("Point", "x y")
p = Point(1, 2)
p
# %%
x, y = p
x, y = y, x
first, *middle, last = range(6)
print(x, y, first, middle, last)
# %%
p._replace(x=10), p._asdict()
# %%
(a, b), c = (1, 2), 3
a, b, c
# %%
pairs = [(1, "one"), (2, "two")]
for number, name in pairs:
    print(number, name)
dict(pairs)
# %%
p.x = 5
