# Type hints at run time: TypedDict, Protocol, Generic, get_type_hints.
# %%
from typing import Generic, Optional, Protocol, TypedDict, TypeVar, get_type_hints
T = TypeVar("T")
class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item
    def get(self) -> T:
        return self.item
Box[int](3).get(), get_type_hints(Box.get)
# %%
class Movie(TypedDict):
    title: str
    year: Optional[int]
m: Movie = {"title": "x", "year": None}
m, get_type_hints(Movie)
# %%
class Greeter(Protocol):
    def greet(self) -> str: ...
class English:
    def greet(self) -> str:
        return "hello"
def use(g: Greeter) -> str:
    return g.greet()
use(English()), use.__annotations__
# %%
count: int = 5
__annotations__ if "__annotations__" in dir() else "no module annotations"
# %%
def typed(a: "Later") -> None: ...
get_type_hints(typed)
