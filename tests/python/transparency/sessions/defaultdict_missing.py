# defaultdict and __missing__: a lookup of a missing key adds it, so only the
# user's own lookups may happen.
# %%
from collections import defaultdict
groups = defaultdict(list)
groups["a"].append(1)
groups["b"].append(2)
sorted(groups)
# %%
del groups["a"]
sorted(groups)
# %%
groups["b"].append(3)
sorted(groups.items())
# %%
class Registry(dict):
    def __missing__(self, key):
        print("missing", key)
        self[key] = len(self)
        return self[key]
reg = Registry()
reg["x"], reg["y"]
# %%
reg.pop("x")
sorted(reg)
# %%
sorted(reg), sorted(groups)
