# %% c1
REGION = 'north'
brackets = [(12000, 0.0), (40000, 0.2), (100000, 0.35)]
top_rate = 0.45
north_surcharge = 0.01
incomes = {'Priya': 35000, 'Tom': 58000, 'Lena': 9500, 'Kwame': 130000}
# %% c2
def tax_due(income):
    due = 0.0
    lower = 0
    for upper, rate in brackets:
        if income <= lower:
            break
        due += (min(income, upper) - lower) * rate
        lower = upper
    if income > lower:
        due += (income - lower) * top_rate
    if REGION == 'north':
        due += income * north_surcharge
    return round(due, 2)
# %% c3
owed = {name: tax_due(x) for name, x in incomes.items()}
tom_tax = owed['Tom']
# %% c1
REGION = 'south'
brackets = [(12000, 0.0), (40000, 0.2), (100000, 0.35)]
top_rate = 0.45
north_surcharge = 0.01
incomes = {'Priya': 35000, 'Tom': 58000, 'Lena': 9500, 'Kwame': 130000}
# %% c3
owed = {name: tax_due(x) for name, x in incomes.items()}
tom_tax = owed['Tom']
# ask: tom_tax
# ask: owed['Lena']
