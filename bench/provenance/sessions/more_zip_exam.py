# %% c1
students = ['maya', 'leo', 'ivan', 'zoe']
marks = [78, 92, 65, 88]
pass_mark = 70
# %% c2
results = dict(zip(students, marks))
passed = [s for s, m in results.items() if m >= pass_mark]
top_student = max(results, key=results.get)
# ask: passed
# ask: top_student
