# Closures, nonlocal state, late binding, global statements.
# %%
def make_counter(start=0):
    count = start
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc

c1 = make_counter()
c2 = make_counter(10)
c1(), c1(), c2(5)
# %%
c1(), c1.__closure__[0].cell_contents, c1.__code__.co_freevars
# %%
funcs = [lambda: i for i in range(3)]
bound = [lambda i=i: i for i in range(3)]
[f() for f in funcs], [f() for f in bound]
# %%
total = 0
def add_to_total(x):
    global total
    total += x
    return total

add_to_total(3); add_to_total(4)
total
# %%
def outer():
    items = []
    def push(v):
        items.append(v)
        return len(items)
    return push, items

push, items = outer()
push("a"); push("b")
items
