# sorted with keys, map/filter/reduce, partial, operator.
# %%
from functools import partial, reduce
import operator
people = [("ann", 31), ("bob", 25), ("cy", 31), ("di", 22)]
sorted(people, key=lambda p: (-p[1], p[0]))
# %%
list(map(str.upper, ["a", "b"])), list(filter(None, [0, 1, "", "x"])), reduce(operator.mul, range(1, 6))
# %%
base2 = partial(int, base=2)
base2("1011"), base2.func.__name__, base2.keywords
# %%
max(people, key=operator.itemgetter(1)), min(people, key=lambda p: len(p[0]))
# %%
sorted(people, key=operator.itemgetter(1), reverse=True)
# %%
list(zip(*people)), dict(people), list(enumerate("ab", start=1))
