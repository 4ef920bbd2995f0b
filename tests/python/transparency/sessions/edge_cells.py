# Unusual cells: empty, comments only, blank lines, a lone expression, ';'.
# %%
# %%
# only a comment
# %%


# %%
pass
# %%
42
# %%
42;
# %%
x = 1; y = 2; x + y
# %%
if x:
    pass
# %%
"""A docstring-like string."""
# %%
...
