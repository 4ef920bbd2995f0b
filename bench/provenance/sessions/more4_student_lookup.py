# %% c1
roster = [
    {'id': 101, 'name': 'Ana', 'grade': 91},
    {'id': 102, 'name': 'Raj', 'grade': 78},
    {'id': 103, 'name': 'Lu', 'grade': 85},
]
wanted = 102
# %% c2
by_id = {s['id']: s for s in roster}
student = by_id.get(wanted)
name = student['name'] if student else 'unknown'
honor_roll = [s['name'] for s in roster if s['grade'] >= 85]
# ask: name
# ask: honor_roll
