# %% c1
queue = [
    ('Hardcore History ep. 70', 92),
    ('Radiolab: Colors', 58),
    ('99% Invisible 512', 31),
    ('The Daily', 24),
    ('Reply All 158', 46),
]
commute_min = 50
trips = 4
# %% c2
available = commute_min * trips
finished = []
used = 0
for title, length in queue:
    if used + length > available:
        stopped_at = title
        break
    finished.append(title)
    used += length
else:
    stopped_at = None
# %% c3
left_over = available - used
n_finished = len(finished)
# ask: stopped_at
# ask: left_over
