# Code that checks whether a tracer or profiler is attached (a debugger check).
# %%
import sys
sys.gettrace() is None, sys.getprofile() is None
# %%
def under_debugger():
    return sys.gettrace() is not None
under_debugger()
# %%
import threading
threading.gettrace() is None, threading.getprofile() is None
