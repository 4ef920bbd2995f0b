# %% c1
students = [{'name': 'ana', 'grade': 71}, {'name': 'bo', 'grade': 88}, {'name': 'cy', 'grade': 64}]
bonus = 5
# %% c2
def final(s):
    return s['grade'] + bonus
best = max(students, key=final)['name']
ranked = sorted(students, key=lambda s: s['grade'], reverse=False)
lowest = min(students, key=lambda s: s['grade'])['grade']
# ask: best
# ask: lowest
