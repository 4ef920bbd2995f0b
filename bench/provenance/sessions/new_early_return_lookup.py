# %% c1
users = [
    {'id': 1, 'name': 'ann', 'active': True},
    {'id': 2, 'name': 'bob', 'active': False},
    {'id': 3, 'name': 'cat', 'active': True},
]

def find_name(uid):
    for u in users:
        if u['id'] == uid:
            if not u['active']:
                return None
            return u['name'].title()
    return 'unknown'
# %% c2
wanted = 3
name = find_name(wanted)
# ask: name
