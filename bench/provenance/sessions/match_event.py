# %% c1
event = {'type': 'click', 'x': 10, 'y': 20}
# %% c2
match event:
    case {'type': 'click', 'x': x, 'y': y}:
        action = f'click at {x},{y}'
    case {'type': 'key', 'key': k}:
        action = f'key {k}'
    case _:
        action = 'unknown'
# ask: action
