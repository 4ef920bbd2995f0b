# A user's line tracer over generators made before it was set: one from a
# module the user wrote, one defined in a cell (their frames already exist).
# %%
%%writefile libgen.py
def lib_counter(n):
    i = 0
    while i < n:
        yield i
        i += 1
# %%
import sys
sys.path.insert(0, ".")
import libgen
def user_counter(n):
    i = 0
    while i < n:
        yield i
        i += 1
lg = libgen.lib_counter(5)
ug = user_counter(5)
next(lg), next(ug)
# %%
events = []
def tracer(frame, event, arg):
    if frame.f_code.co_name in ("lib_counter", "user_counter"):
        events.append((event, frame.f_code.co_name, frame.f_lineno))
    return tracer
sys.settrace(tracer)
next(lg), next(ug)
# %%
next(lg), next(ug)
# %%
sys.settrace(None)
for e in events:
    print(e)
