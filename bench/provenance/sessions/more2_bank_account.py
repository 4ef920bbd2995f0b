# %% c1
class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance

    def deposit(self, amount):
        self.balance += amount

    def withdraw(self, amount):
        if amount > self.balance:
            return False
        self.balance -= amount
        return True
# %% c2
acct = Account('dana', 100)
acct.deposit(50)
ok = acct.withdraw(120)
left = acct.balance
# ask: ok
# ask: left
