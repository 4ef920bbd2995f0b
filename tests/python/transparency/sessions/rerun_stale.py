# The notebook way of working: an edited cell re-run, then a cell reading a
# value computed from the old one (a truly stale read: nbsight may warn).
# allow-warning: 4 b
# %%
a = 4
# %%
b = a * 2
# %%
a = 5
# %%
print(a + b)
# %%
b = a * 2
print(a + b)
