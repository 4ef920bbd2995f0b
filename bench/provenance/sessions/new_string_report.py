# %% c1
team = ['dana', 'eli', 'fay']
scores = [88, 92, 79]
sep = ', '
# %% c2
parts = [f'{n.capitalize()}: {s}' for n, s in zip(team, scores)]
report = sep.join(parts)
header = 'Scores'.upper()
line = header + ' - ' + report
# ask: report
# ask: line
