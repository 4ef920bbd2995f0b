# %% c1
balance = 1000.0
monthly_rate = 0.01
payment = 150.0
# %% c2
months = 0
interest_paid = 0.0
while balance > 0 and months < 120:
    interest = balance * monthly_rate
    interest_paid += interest
    balance = balance + interest - payment
    months += 1
interest_paid = round(interest_paid, 2)
# ask: months
# ask: interest_paid
