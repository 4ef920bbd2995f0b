# %% c1
balance = 1200.0
monthly_deposit = 250.0
annual_rate = 0.042
goal = 5000.0
bonus_month = 6
bonus = 800.0
# %% c2
month = 0
history = []
while balance < goal:
    month += 1
    balance += balance * annual_rate / 12
    balance += monthly_deposit
    if month == bonus_month:
        balance += bonus
    history.append(round(balance, 2))
# %% c3
months_needed = month
final_balance = round(balance, 2)
print(f"goal reached after {months_needed} months: {final_balance}")
# ask: months_needed
# ask: history[2]
