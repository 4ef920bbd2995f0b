# Comprehensions of every kind, nested, filtered, with the walrus operator.
# %%
data = [4, 7, 1, 9, 3]
squares = [x * x for x in data]
evens = {x: x % 2 == 0 for x in data}
unique = {x % 3 for x in data}
squares, evens, unique
# %%
matrix = [[r * 3 + c for c in range(3)] for r in range(3)]
transposed = [[row[i] for row in matrix] for i in range(3)]
flat = [v for row in matrix for v in row if v % 2]
print(matrix, transposed, flat)
# %%
def slow_double(x):
    return x * 2

big = [y for x in data if (y := slow_double(x)) > 8]
big, y
# %%
if (n := len(data)) > 3:
    print("long", n)
# %%
gen = (x for x in data if x > 3)
sum(gen), list(gen)
# %%
x = "outer"
[x for x in range(3)], x
