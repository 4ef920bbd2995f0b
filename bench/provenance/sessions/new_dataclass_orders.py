# %% c1
from dataclasses import dataclass, field

@dataclass
class Order:
    item: str
    qty: int
    unit_price: float
    tags: list = field(default_factory=list)

    @property
    def total(self):
        return self.qty * self.unit_price
# %% c2
orders = [Order('pen', 10, 1.5), Order('book', 2, 12.0), Order('bag', 1, 30.0, ['gift'])]
vat = 0.2
grand = sum(o.total for o in orders) * (1 + vat)
gifts = [o.item for o in orders if 'gift' in o.tags]
# ask: grand
# ask: gifts
