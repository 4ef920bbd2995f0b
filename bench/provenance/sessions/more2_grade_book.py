# %% c1
students = [('amy', [88, 92, 79]), ('bob', [65, 70, 58]), ('cat', [95, 90, 99])]
pass_mark = 70
# %% c2
averages = {}
for name, marks in students:
    averages[name] = sum(marks) / len(marks)
passed = [n for n, avg in averages.items() if avg >= pass_mark]
best = max(averages.items(), key=lambda kv: kv[1])[0]
# ask: averages['bob']
# ask: passed
# ask: best
