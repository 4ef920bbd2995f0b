# A recursive function without a base case: the RecursionError traceback.
# %%
def walk(n):
    return walk(n + 1)
walk(0)
# %%
print("the kernel survived")
# %%
import sys
sys.setrecursionlimit(500)
def ping(n):
    return pong(n + 1)
def pong(n):
    return ping(n + 1)
ping(0)
