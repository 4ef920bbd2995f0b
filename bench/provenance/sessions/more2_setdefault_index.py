# %% c1
pairs = [('fruit', 'apple'), ('veg', 'leek'), ('fruit', 'kiwi'), ('veg', 'kale')]
# %% c2
index = {}
for kind, name in pairs:
    index.setdefault(kind, []).append(name)
fruit_count = len(index['fruit'])
first_veg = index['veg'][0]
# ask: fruit_count
# ask: first_veg
