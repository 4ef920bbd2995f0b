# %% c1
class Inventory:
    def __init__(self):
        self.stock = {}

    def add(self, item, n=1):
        self.stock[item] = self.stock.get(item, 0) + n

    def remove(self, item, n=1):
        if self.stock.get(item, 0) < n:
            raise ValueError(f'not enough {item}')
        self.stock[item] -= n
# %% c2
inv = Inventory()
inv.add('apple', 5)
inv.add('pear', 3)
inv.remove('apple', 2)
apples = inv.stock['apple']
low = [k for k, v in inv.stock.items() if v < 4]
# ask: apples
# ask: low
