# Listing the user's names through globals(), dir() and vars().
# %%
import math
alpha = 1
def helper():
    return alpha
class Thing:
    pass
user_names = lambda: sorted(n for n in globals() if not n.startswith("_") and n not in ("In", "Out", "exit", "quit", "get_ipython"))
user_names()
# %%
beta = alpha + 1
del alpha
user_names()
# %%
sorted(n for n in dir() if not n.startswith("_"))[:20]
# %%
globals()["gamma"] = 3
gamma, "gamma" in globals(), vars()["beta"]
# %%
locals() is globals(), __name__
# %%
sorted(k for k, v in globals().items() if callable(v) and not k.startswith("_") and k not in ("exit", "quit", "get_ipython", "user_names"))
# %%
sorted(n for n in globals() if n.startswith("_") and not n.startswith("__") and not n.startswith("_i") and not n[1:].isdigit())
