# %% c1
students = [
    {'name': 'Maya', 'grades': {'math': [88, 92, 79], 'bio': [70, 85]}},
    {'name': 'Jonas', 'grades': {'math': [65, 72, 58], 'bio': [90, 94]}},
    {'name': 'Priya', 'grades': {'math': [95, 98, 91], 'bio': [60, 75]}},
    {'name': 'Leo', 'grades': {'math': [80, 77, 84], 'bio': [82, 79]}},
]
pass_mark = 70
# %% c2
averages = {}
failed = []
for s in students:
    for subject, marks in s['grades'].items():
        avg = sum(marks) / len(marks)
        averages[(s['name'], subject)] = round(avg, 1)
        for m in marks:
            if m < pass_mark:
                failed.append((s['name'], subject, m))
# %% c3
best_math = max((n for n, subj in averages if subj == 'math'), key=lambda n: averages[(n, 'math')])
n_failed_marks = len(failed)
# ask: best_math
# ask: averages[('Jonas', 'bio')]
