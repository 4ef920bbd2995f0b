# %% c1
command = ['move', 3, 4]
limit = 5
# %% c2
match command:
    case ['quit']:
        result = 'bye'
    case ['move', dx, dy] if dx < limit:
        result = dx + dy
    case ['move', *_]:
        result = 'too far'
    case _:
        result = 'unknown'
# ask: result
