# Errors whose messages suggest a name: NameError, AttributeError, ImportError.
# %%
temperature = 21
temperatur
# %%
class Reading:
    def __init__(self):
        self.value = 3
r = Reading()
r.valeu
# %%
from math import sqrtt
# %%
import collections
collections.Countr
# %%
def f():
    local_thing = 1
    return local_thin
f()
# %%
"abc".uper()
# %%
del temperature
temperature
