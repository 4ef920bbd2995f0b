# %autoreload 2 picking up an edited module of the user's.
# %%
%load_ext autoreload
%autoreload 2
# %%
%%writefile shapes_mod.py
def area(w, h):
    return w * h
VERSION = 1
# %%
import os
import sys
sys.path.insert(0, ".")
import shapes_mod
shapes_mod.area(2, 3), shapes_mod.VERSION
# %%
from shapes_mod import area
result = area(4, 5)
result
# %%
%%writefile shapes_mod.py
def area(w, h):
    return w * h * 10
VERSION = 2
# %%
stat = os.stat("shapes_mod.py")
os.utime("shapes_mod.py", (stat.st_atime + 100, stat.st_mtime + 100))
# %%
shapes_mod.area(2, 3), shapes_mod.VERSION, area(1, 1)
# %%
result
