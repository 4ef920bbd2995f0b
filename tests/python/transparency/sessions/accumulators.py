# Counters and lists grown over several cells; each read is of the latest value.
# %%
total = 0
items = []
# %%
for i in range(3):
    total += i
    items.append(i)
total, items
# %%
total += 10
items.append(10)
mean = total / len(items)
mean
# %%
items.extend([1, 2])
total += 3
print(total, items)
# %%
items.sort()
items[-1], len(items), total
# %%
squares = [x * x for x in items]
items.append(7)
sum(items), squares
