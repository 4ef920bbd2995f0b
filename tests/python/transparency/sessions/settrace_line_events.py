# A line tracer on the cell's own frames: which lines of later cells ran.
# %%
import sys
lines = []
def line_tracer(frame, event, arg):
    if frame.f_globals.get("__name__") == "__main__":
        lines.append((event, frame.f_code.co_name, frame.f_lineno))
    return line_tracer
sys.settrace(line_tracer)
after_settrace = 1
# %%
a = 1
b = a + 1
if b > 5:
    c = 0
else:
    c = 2
# %%
for i in range(2):
    a += i
# %%
sys.settrace(None)
for entry in lines:
    print(entry)
