# %% c1
names = ['ana', 'bo', 'cy']
scores = [88, 92, 79]
# %% c2
report = {n: s for n, s in zip(names, scores)}
ranked = [f'{i + 1}. {n}' for i, n in enumerate(sorted(report, key=report.get, reverse=True))]
# ask: report['bo']
# ask: ranked
