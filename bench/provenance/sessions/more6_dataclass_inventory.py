# %% c1
from dataclasses import dataclass

@dataclass
class Item:
    sku: str
    price: float
    qty: int
    discount: float = 0.0

    def value(self):
        return self.price * self.qty * (1 - self.discount)
# %% c2
stock = [
    Item('KB-01', 49.0, 12),
    Item('MS-02', 19.5, 40, discount=0.1),
    Item('MN-27', 229.0, 3),
    Item('CB-10', 6.0, 150, discount=0.25),
]
# %% c3
values = {it.sku: round(it.value(), 2) for it in stock}
top_item = max(stock, key=lambda it: it.value())
cheap_qty = sum(it.qty for it in stock if it.price < 20)
# ask: top_item.sku
# ask: values['MS-02']
