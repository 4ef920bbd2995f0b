# %reset -f clears the namespace; names bound afterwards work as usual.
# %%
a = 1
b = [a, 2]
def f():
    return b
f()
# %%
%reset -f
%who
# %%
a
# %%
a = 5
a * 2
# %%
f
