# Frame introspection that stays inside the user's code.
# %%
import inspect
import sys
sys._getframe(0).f_code.co_name, sys._getframe().f_lineno
# %%
def whoami():
    return sys._getframe(0).f_code.co_name

def caller_name():
    return sys._getframe(1).f_code.co_name

def outer_fn():
    return whoami(), caller_name()

outer_fn(), caller_name()
# %%
def where():
    frame = inspect.currentframe()
    return frame.f_back.f_code.co_name, frame.f_back.f_lineno

def middle():
    return where()

middle(), where()
# %%
def show_locals(a, b=2):
    c = a + b
    return sorted(inspect.currentframe().f_locals)

show_locals(1)
# %%
def sig(a, b: int = 3, *args, key=None, **kw) -> str:
    """Docstring here."""
    return "x"

str(inspect.signature(sig)), inspect.getdoc(sig), inspect.isfunction(sig)
# %%
print(inspect.getsource(sig))
# %%
[f.function for f in inspect.stack()[:1]], inspect.stack()[0].lineno, sys._getframe(0).f_globals is globals()
