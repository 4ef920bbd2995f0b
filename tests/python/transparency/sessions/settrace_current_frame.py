# Tracing the running cell itself: frame.f_trace set by the user, after a
# loop at the cell's top level and without one.
# %%
import sys
events = []
def tr(frame, event, arg):
    if frame.f_globals.get("__name__") == "__main__":
        events.append((event, frame.f_code.co_name, frame.f_lineno))
    return tr
# %%
sys.settrace(tr)
sys._getframe().f_trace = tr
a = 1
b = 2
sys.settrace(None)
events
# %%
events.clear()
for i in range(3):
    pass
sys.settrace(tr)
sys._getframe().f_trace = tr
c = 3
d = 4
sys.settrace(None)
events
# %%
events.clear()
def traced_inside():
    sys.settrace(tr)
    sys._getframe().f_trace = tr
    x = 1
    y = 2
    sys.settrace(None)
    return x + y
traced_inside(), events
# %%
sys._getframe().f_trace_lines, sys._getframe().f_trace_opcodes
