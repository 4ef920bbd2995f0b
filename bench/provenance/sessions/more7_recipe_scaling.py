# %% c1
from types import SimpleNamespace
recipe = SimpleNamespace()
recipe.name = 'banana bread'
recipe.serves = 8
recipe.flour_g = 250
recipe.sugar_g = 150
recipe.bananas = 3
recipe.oven_c = 175
guests = 12
# %% c2
factor = guests / recipe.serves
flour_needed = round(recipe.flour_g * factor)
sugar_needed = round(recipe.sugar_g * factor)
bananas_needed = -(-recipe.bananas * guests // recipe.serves)
# %% c3
shopping = {'flour (g)': flour_needed, 'sugar (g)': sugar_needed, 'bananas': bananas_needed}
label = f"{recipe.name} x{factor:.1f} at {recipe.oven_c}C"
# ask: shopping['bananas']
# ask: label
