# How deep a recursive function gets before RecursionError, and the message.
# %%
import sys
sys.getrecursionlimit()
# %%
def deepest(n):
    try:
        return deepest(n + 1)
    except RecursionError:
        return n
deepest(0)
# %%
def deep(n):
    return deep(n + 1)
try:
    deep(0)
except RecursionError as e:
    message = str(e)
message
# %%
sys.setrecursionlimit(300)
deepest(0)
# %%
sys.setrecursionlimit(1000)
reached = []
def track(n):
    reached.append(n)
    track(n + 1)
try:
    track(0)
except RecursionError:
    pass
len(reached)
