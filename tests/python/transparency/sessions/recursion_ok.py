# Recursion well under the limit: factorial, tree walks, memoised fib.
# %%
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
fact(20), len(str(fact(400)))
# %%
tree = {"v": 1, "kids": [{"v": 2, "kids": []}, {"v": 3, "kids": [{"v": 4, "kids": []}]}]}
def total(node):
    return node["v"] + sum(total(k) for k in node["kids"])
def depth(node):
    return 1 + max((depth(k) for k in node["kids"]), default=0)
total(tree), depth(tree)
# %%
def count_down(n):
    if n == 0:
        return "done"
    return count_down(n - 1)
count_down(400)
# %%
memo = {}
def fib(n):
    if n in memo:
        return memo[n]
    memo[n] = n if n < 2 else fib(n - 1) + fib(n - 2)
    return memo[n]
fib(300) % 1000007, len(memo)
# %%
def flatten(xs):
    for x in xs:
        if isinstance(x, list):
            yield from flatten(x)
        else:
            yield x
list(flatten([1, [2, [3, [4, [5]]]], 6]))
