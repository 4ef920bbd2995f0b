# Objects that log every access: properties, __getattribute__, __getitem__,
# __eq__, __hash__, __len__, __iter__, __bool__, __repr__. Only the user's
# own code may touch them.
# %%
log = []
class Lazy:
    loads = 0
    @property
    def data(self):
        Lazy.loads += 1
        log.append("property data")
        return [1, 2, 3]
lazy = Lazy()
values = lazy.data
values
# %%
class Spy:
    def __init__(self):
        object.__setattr__(self, "x", 1)
    def __getattribute__(self, name):
        log.append("getattribute " + name)
        return object.__getattribute__(self, name)
    def __setattr__(self, name, value):
        log.append("setattr " + name)
        object.__setattr__(self, name, value)
spy = Spy()
spy.x = spy.x + 1
# %%
class Loud(list):
    def __len__(self):
        log.append("len")
        return super().__len__()
    def __iter__(self):
        log.append("iter")
        return super().__iter__()
    def __getitem__(self, i):
        log.append(f"getitem {i!r}")
        return super().__getitem__(i)
    def __eq__(self, other):
        log.append("eq")
        return super().__eq__(other)
    def __hash__(self):
        log.append("hash")
        return 0
    def __bool__(self):
        log.append("bool")
        return True
    def __repr__(self):
        log.append("repr")
        return "Loud(...)"
loud = Loud([1, 2, 3])
loud.append(4)
first = loud[0]
alias = loud
# %%
loud[1] = 20
loud.extend([5])
other = Loud([0])
# %%
log
# %%
Lazy.loads, spy.x, len(log)
