# sys.settrace kept for many cells; the tracer counts calls of user functions.
# %%
import sys
calls = {}
def counting(frame, event, arg):
    if event == "call" and frame.f_globals.get("__name__") == "__main__":
        name = frame.f_code.co_name
        calls[name] = calls.get(name, 0) + 1
    return None

def helper(n):
    return n + 1
# %%
sys.settrace(counting)
# %%
helper(1)
# %%
[helper(i) for i in range(3)]
# %%
sys.gettrace() is counting
# %%
def later():
    return helper(10)
later()
# %%
sys.settrace(None)
calls
