# Errors raised inside comprehensions, generator expressions and lambdas.
# %%
values = [1, 2, 0, 4]
[10 / v for v in values]
# %%
sum(10 // v for v in values)
# %%
{v: 1 / v for v in values}
# %%
sorted(values, key=lambda v: 1 / v)
# %%
list(map(lambda s: s.upper(), ["a", None]))
# %%
[[1 / (i - j) for j in range(2)] for i in range(2)]
