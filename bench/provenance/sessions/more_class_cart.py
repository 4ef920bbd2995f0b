# %% c1
class Cart:
    def __init__(self, owner):
        self.owner = owner
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def total(self):
        return sum(p * q for _, p, q in self.items)

customer = 'sam'
coupon = 5.0
# %% c2
cart = Cart(customer)
cart.add('apple', 0.5, 6)
cart.add('bread', 2.25)
cart.add('cheese', 4.75)
to_pay = max(cart.total() - coupon, 0)
# ask: to_pay
# ask: cart.owner
