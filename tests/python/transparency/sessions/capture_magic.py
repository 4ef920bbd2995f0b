# %%capture: a cell's output kept in a variable.
# %%
%%capture captured
print("hidden line")
value = 42
value
# %%
captured.stdout, value
# %%
captured.show()
# %%
%%capture --no-stdout second
print("shown")
import sys
print("to stderr", file=sys.stderr)
# %%
second.stderr
# %%
%%capture third
1 / 0
# %%
"ZeroDivisionError" in third.stdout
