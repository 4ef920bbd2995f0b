# traceback.print_stack() from a function: the whole stack, on stderr.
# %%
import traceback
def report():
    traceback.print_stack()
report()
# %%
def short():
    traceback.print_stack(limit=2)
short()
# %%
lines = traceback.format_stack(limit=1)
print(len(lines), lines[0].splitlines()[1].strip())
# %%
len(traceback.extract_stack())
