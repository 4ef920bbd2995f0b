# Objects held only by weak references disappear at once.
# %%
import weakref
class Big:
    def __init__(self, n):
        self.n = n
cache = weakref.WeakValueDictionary()
a = Big(1)
cache["a"] = a
cache["tmp"] = Big(2)
sorted(cache.keys())
# %%
b = Big(3)
cache["b"] = b
sorted(cache.keys())
# %%
del b
sorted(cache.keys())
# %%
a = Big(4)
sorted(cache.keys())
# %%
ws = weakref.WeakSet()
keep = Big(5)
ws.add(keep); ws.add(Big(6))
len(ws)
# %%
import sys
x = object()
holder = [x]
sys.getrefcount(x)
