# Cells that do not compile: syntax and indentation errors, then good cells.
# %%
x = (1, 2
# %%
def f():
return 1
# %%
print("fine", 1 + 1)
# %%
if True:
    a = 1
      b = 2
# %%
x = 5 +* 3
# %%
f"{x!z}"
# %%
return 5
# %%
lambda x: yield x
# %%
x = 1
x
