# A user's sys.settrace tracer, set in one cell, still tracing in later cells.
# %%
import sys
events = []
def tracer(frame, event, arg):
    if frame.f_globals.get("__name__") == "__main__":
        events.append((event, frame.f_code.co_name, frame.f_lineno))
    return tracer

def square(x):
    y = x * x
    return y
# %%
sys.settrace(tracer)
square(3)
# %%
sys.gettrace() is tracer, getattr(sys.gettrace(), "__name__", None)
# %%
square(4)
# %%
sys.settrace(None)
for e in events:
    print(e)
# %%
sys.gettrace() is None
