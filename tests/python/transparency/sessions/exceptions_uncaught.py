# Uncaught errors at the top level and deep in calls; later cells still run.
# %%
1 / 0
# %%
def parse(text):
    return int(text)

def load(values):
    return [parse(v) for v in values]

load(["1", "2", "x3"])
# %%
print("next cell runs")
x = [1, 2, 3]
x[10]
# %%
def level3(d):
    return d["missing"]
def level2(d):
    return level3(d) + 1
def level1():
    return level2({"present": 1})
level1()
# %%
import sys
print(type(sys.last_value).__name__, sys.last_value)
# %%
%tb
# %%
None + 1
