# Classes: class vs instance attributes, properties, setattr/getattr, vars().
# %%
class Account:
    bank = "First"
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance
    def deposit(self, amount):
        self.balance += amount
        return self
    def __repr__(self):
        return f"Account({self.owner!r}, {self.balance})"

acct = Account("ann", 10)
acct.deposit(5).deposit(1)
# %%
other = Account("bob")
other.bank = "Second"
Account.bank = "Third"
acct.bank, other.bank, Account.bank
# %%
setattr(acct, "note", "vip")
vars(acct), getattr(acct, "missing", "none"), hasattr(acct, "note")
# %%
del acct.note
vars(acct)
# %%
alias = acct
alias.balance = 0
acct
# %%
class Temperature:
    def __init__(self, c):
        self._c = c
    @property
    def f(self):
        return self._c * 9 / 5 + 32
    @f.setter
    def f(self, value):
        self._c = (value - 32) * 5 / 9

t = Temperature(100)
t.f = 50
t.f, t._c
# %%
acct.balance.real, type(acct).__name__, Account.__qualname__, Account.deposit.__qualname__
