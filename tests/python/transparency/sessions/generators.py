# Generators consumed across cells, send(), yield from, close().
# %%
def numbers(limit):
    n = 0
    while n < limit:
        received = yield n
        if received is not None:
            n = received
        else:
            n += 1
    return "done"

gen = numbers(10)
next(gen), next(gen)
# %%
gen.send(7)
# %%
list(gen)
# %%
next(gen)
# %%
def chain_all(*iterables):
    for it in iterables:
        result = yield from it
    return result

list(chain_all([1, 2], (3,), numbers(2)))
# %%
def fibs():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b

f = fibs()
[next(f) for _ in range(10)]
# %%
[next(f) for _ in range(3)]
# %%
g = fibs()
next(g)
g.close()
next(g, "closed")
# %%
def with_cleanup():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup ran")

w = with_cleanup()
next(w)
del w
print("after del")
