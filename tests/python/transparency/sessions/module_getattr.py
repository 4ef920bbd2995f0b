# A module of the user's with a module-level __getattr__ (PEP 562) that logs.
# %%
%%writefile lazymod.py
calls = []
value = 1
def __getattr__(name):
    calls.append(name)
    if name == "computed":
        return 42
    raise AttributeError(name)
# %%
import sys
sys.path.insert(0, ".")
import lazymod
x = lazymod.value + lazymod.computed
x
# %%
lazymod.value = 5
y = lazymod.value
# %%
lazymod.calls
# %%
getattr(lazymod, "missing", "default"), lazymod.calls
