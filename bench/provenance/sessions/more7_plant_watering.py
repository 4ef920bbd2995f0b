# %% c1
plants = [
    ('fern', 'bathroom', 0.35, 3),
    ('cactus', 'window', 0.05, 14),
    ('monstera', 'living', 0.20, 7),
    ('basil', 'kitchen', 0.15, 2),
    ('snake plant', 'bedroom', 0.10, 10),
    ('pothos', 'living', 0.25, 5),
]
days_away = 6
# %% c2
needs_sitter = []
litres = 0.0
for name, room, litres_each, every in plants:
    if every > days_away:
        continue
    waterings = days_away // every
    needs_sitter.append(name)
    litres += litres_each * waterings
# %% c3
litres = round(litres, 2)
n_needing = len(needs_sitter)
# ask: litres
# ask: needs_sitter
