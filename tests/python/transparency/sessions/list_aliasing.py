# Two names for one list, copies, and lists inside lists.
# %%
a = [1, 2]
b = a
# %%
a.append(3)
print(b, b is a)
# %%
c = a[:]
d = list(a)
a.append(4)
print(c, d, b)
# %%
grid = [[0] * 3] * 3
grid[0][0] = 1
grid
# %%
grid2 = [[0] * 3 for _ in range(3)]
grid2[0][0] = 1
grid2
# %%
b.clear()
a, b, c
