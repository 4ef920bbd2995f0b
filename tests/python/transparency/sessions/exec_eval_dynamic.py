# Names bound by exec, globals() and star imports; eval over the namespace.
# %%
exec("made_by_exec = 5")
made_by_exec
# %%
globals()["made_by_globals"] = 7
made_by_exec + made_by_globals
# %%
from math import *
sqrt(16), floor(pi), e > 2
# %%
namespace = {}
exec("def f(x):\n    return x + 1\nresult = f(1)", namespace)
namespace["result"], sorted(k for k in namespace if not k.startswith("__"))
# %%
eval("made_by_exec * 2")
# %%
code = compile("z = made_by_exec + 1", "<string>", "exec")
exec(code)
z
# %%
exec("raise ValueError('from exec')")
