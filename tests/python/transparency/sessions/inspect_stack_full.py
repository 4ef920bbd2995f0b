# The whole call stack as a cell sees it (inspect.stack, sys._getframe chain).
# %%
import inspect
import os
import sys
def stack_names():
    return [(os.path.basename(f.filename), f.function) for f in inspect.stack()]
for name in stack_names():
    print(name)
# %%
frame = sys._getframe()
chain = []
while frame is not None:
    chain.append(frame.f_code.co_name)
    frame = frame.f_back
chain
# %%
len(inspect.stack())
