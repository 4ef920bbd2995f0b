# %% c1
def bmi(weight_kg, height_m):
    return weight_kg / height_m ** 2

def category(b):
    if b < 18.5:
        return 'under'
    elif b < 25:
        return 'normal'
    return 'over'
# %% c2
people = {'rita': (58, 1.70), 'sam': (92, 1.80), 'uma': (47, 1.65)}
labels = {name: category(bmi(w, h)) for name, (w, h) in people.items()}
mine = round(bmi(74, 1.78), 1)
# ask: labels['sam']
# ask: mine
