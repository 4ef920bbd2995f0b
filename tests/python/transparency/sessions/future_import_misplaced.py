# A __future__ import that is not first in its cell; annotations without it.
# %%
x = 1
from __future__ import annotations
# %%
def f(a: int) -> str:
    return str(a)
f.__annotations__
# %%
def g(a: NotDefinedAnywhere):
    return a
# %%
from __future__ import braces
