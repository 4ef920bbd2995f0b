# Dataclasses: defaults, default_factory, ordering, and a frozen one (uncaught error).
# %%
from dataclasses import asdict, dataclass, field, replace

@dataclass(order=True)
class Item:
    price: float
    name: str = "thing"
    tags: list = field(default_factory=list)

items = [Item(3.0, "b"), Item(1.5, "a", ["x"]), Item(3.0, "a")]
sorted(items)
# %%
items[0].tags.append("new")
asdict(items[0]), items[0] == Item(3.0, "b", ["new"])
# %%
@dataclass(frozen=True)
class Pt:
    x: int
    y: int = 0

p = Pt(1)
replace(p, y=5), hash(p) == hash(Pt(1, 0))
# %%
p.x = 3
# %%
print("still running", p)
