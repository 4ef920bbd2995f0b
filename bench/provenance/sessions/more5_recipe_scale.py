# %% c1
recipe = """  Flour: 250 g
sugar : 100 g
 Eggs: 2 pcs
Butter: 125 g
milk: 200 ml """
serves = 4
want = 6
# %% c2
factor = want / serves
scaled = {}
for line in recipe.splitlines():
    name, amount = line.split(':')
    qty, unit = amount.split()
    scaled[name.strip().lower()] = (round(float(qty) * factor, 1), unit)
# %% c3
shopping = [f"{n.title()}: {q:g} {u}" for n, (q, u) in scaled.items() if u == 'g']
eggs = scaled['eggs'][0]
# ask: shopping[1]
# ask: eggs
