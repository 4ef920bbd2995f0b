# del of names, items and attributes; __del__ and weakref finalizers run when
# the last reference goes.
# %%
import weakref
class Tracked:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("deleted", self.name)

t = Tracked("first")
print("made")
# %%
del t
print("after del")
# %%
t
# %%
class Plain:
    pass
obj = Plain()
fin = weakref.finalize(obj, print, "finalized obj")
ref = weakref.ref(obj)
ref() is obj
# %%
del obj
fin.alive, ref() is None
# %%
d = {"k": 1, "j": 2}
del d["k"]
d
# %%
p = Plain()
p.attr = 3
del p.attr
hasattr(p, "attr")
# %%
items = [Tracked(str(i)) for i in range(3)]
items.pop()
print("popped")
# %%
items.clear()
print("cleared")
# %%
t2 = Tracked("rebound")
t2 = None
print("rebound to None")
