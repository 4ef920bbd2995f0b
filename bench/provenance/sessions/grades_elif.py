# %% c1
def grade(score):
    if score >= 90:
        return 'A'
    elif score >= 80:
        return 'B'
    elif score >= 70:
        return 'C'
    return 'F'
# %% c2
marks = {'ana': 93, 'bo': 78, 'cy': 85}
grades = {name: grade(m) for name, m in marks.items()}
# ask: grades['bo']
# ask: grades
