# %% c1
full_names = 'ada lovelace; alan turing; grace hopper'
sep = '; '
# %% c2
people = full_names.split(sep)
initials = [''.join(part[0].upper() for part in p.split()) for p in people]
label = ', '.join(initials)
greeting = '{} people: {}'.format(len(people), label)
# ask: initials
# ask: greeting
