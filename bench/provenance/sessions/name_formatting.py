# %% c1
first = 'Ada'
last = 'Lovelace'
year = 1815
# %% c2
full = f'{first} {last}'
tag = '-'.join([first.lower(), last.lower(), str(year)])
greeting = 'Hello, {}! Born {}.'.format(full, year)
# ask: tag
# ask: greeting
