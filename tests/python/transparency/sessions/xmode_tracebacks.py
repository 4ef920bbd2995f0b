# Uncaught errors under the other traceback modes (%xmode).
# %%
def divide(a, b):
    ratio = a / b
    return ratio
items = [3, 0]
# %%
%xmode Plain
divide(*items)
# %%
%xmode Verbose
divide(*items)
# %%
%xmode Minimal
divide(*items)
# %%
%xmode Context
divide(*items)
