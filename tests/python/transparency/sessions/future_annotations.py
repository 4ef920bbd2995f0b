# from __future__ import annotations: in force for the following cells too.
# %%
from __future__ import annotations
def scale(x: Number, factor: float = 2.0) -> Number:
    return x * factor
scale.__annotations__
# %%
class Node:
    value: int
    next: Node | None = None
    def link(self, other: Node) -> Node:
        self.next = other
        return other
Node.__annotations__, Node.link.__annotations__
# %%
import typing
typing.get_type_hints(Node.link)
# %%
typing.get_type_hints(scale)
# %%
def later(a: list[UndefinedType]) -> dict[str, int]:
    return {}
later.__annotations__
