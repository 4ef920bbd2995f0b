# %% c1
class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance

    def deposit(self, amount):
        if amount <= 0:
            return False
        self.balance += amount
        return True
# %% c2
opening = 100
deposits = [50, -20, 30]
acct = Account('ana', opening)
for amt in deposits:
    acct.deposit(amt)
final_balance = acct.balance
# ask: final_balance
