# Walking exception tracebacks from user code; print_exc and format_exception.
# %%
import traceback
def inner():
    raise ValueError("deep")
def outer():
    inner()
try:
    outer()
except ValueError as e:
    tb = e.__traceback__
    names = []
    while tb is not None:
        names.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    err = e
names
# %%
traceback.print_exception(err)
# %%
"".join(traceback.format_exception_only(err)), len(traceback.extract_tb(err.__traceback__))
# %%
try:
    outer()
except ValueError:
    traceback.print_exc(limit=1)
# %%
import sys
try:
    outer()
except ValueError:
    info = sys.exc_info()
info[0].__name__, str(info[1]), info[2].tb_frame.f_code.co_name
