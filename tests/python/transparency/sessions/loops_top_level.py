# Loops at a cell's top level: for/else, while, break, continue, nested.
# %%
total = 0
for i in range(10):
    if i % 3 == 0:
        continue
    total += i
print(total, i)
# %%
for n in range(2, 20):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, end=" ")
print()
# %%
k = 0
while True:
    k += 1
    if k * k > 50:
        break
k
# %%
found = None
items = ["a", "bb", "ccc"]
for idx, item in enumerate(items):
    if len(item) == 2:
        found = idx
        break
else:
    found = -1
found
# %%
acc = []
for i in range(3):
    for j in range(3):
        acc.append((i, j))
        if j == i:
            break
acc
# %%
countdown = 3
while countdown:
    print(countdown)
    countdown -= 1
else:
    print("liftoff")
