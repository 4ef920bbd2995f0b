# %% c1
employees = [
    {'name': 'Ana', 'dept': 'ops', 'salary': 5200},
    {'name': 'Ben', 'dept': 'dev', 'salary': 6100},
    {'name': 'Cy', 'dept': 'dev', 'salary': 5900},
]
# %% c2
ranked = sorted(employees, key=lambda e: (e['dept'], -e['salary']))
order = [e['name'] for e in ranked]
first_dev = next(e['name'] for e in ranked if e['dept'] == 'dev')
# ask: order
# ask: first_dev
