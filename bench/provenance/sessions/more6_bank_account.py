# %% c1
class Account:
    def __init__(self, owner, balance=0.0, overdraft=0.0):
        self.owner = owner
        self.balance = balance
        self.overdraft = overdraft
        self.rejected = 0

    def deposit(self, amount):
        self.balance += amount

    def withdraw(self, amount):
        if self.balance - amount < -self.overdraft:
            self.rejected += 1
            return False
        self.balance -= amount
        return True
# %% c2
acct = Account('Rosa', 150.0, overdraft=50.0)
transactions = [('d', 200), ('w', 120), ('w', 300), ('w', 260), ('d', 35)]
# %% c3
for kind, amt in transactions:
    if kind == 'd':
        acct.deposit(amt)
    else:
        acct.withdraw(amt)
print(acct.owner, acct.balance, acct.rejected)
# ask: acct.balance
# ask: acct.rejected
