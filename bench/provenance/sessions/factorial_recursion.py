# %% c1
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)
# %% c2
n = 6
f = factorial(n)
# ask: f
