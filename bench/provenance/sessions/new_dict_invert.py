# %% c1
codes = {'US': 'United States', 'FR': 'France', 'DE': 'Germany'}
query = 'France'
# %% c2
by_name = {v: k for k, v in codes.items()}
code = by_name.get(query, '??')
lengths = {k: len(v) for k, v in codes.items()}
# ask: code
# ask: lengths['DE']
