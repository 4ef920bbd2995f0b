# Decorators, functools.wraps and lru_cache statistics.
# %%
import functools

def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        print(f"calling {func.__name__}{args}")
        return func(*args, **kwargs)
    return wrapper

@logged
def area(w, h):
    """Area of a rectangle."""
    return w * h

area(2, 3), area.__name__, area.__doc__
# %%
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

fib(30), fib.cache_info()
# %%
fib(31)
print(fib.cache_info())
fib.cache_clear()
fib.cache_info()
# %%
def repeat(times):
    def deco(func):
        def inner(*a):
            return [func(*a) for _ in range(times)]
        return inner
    return deco

@repeat(3)
def hello(name):
    return "hi " + name

hello("bo")
# %%
class Memo:
    def __init__(self, func):
        self.func, self.calls = func, 0
    def __call__(self, *args):
        self.calls += 1
        return self.func(*args)

@Memo
def square(x):
    return x * x

square(3), square(4), square.calls
