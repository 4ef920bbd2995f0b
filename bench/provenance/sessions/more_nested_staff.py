# %% c1
staff = {
    'e1': {'name': 'Ana', 'dept': 'sales', 'salary': 52000},
    'e2': {'name': 'Ben', 'dept': 'eng', 'salary': 75000},
    'e3': {'name': 'Cy', 'dept': 'eng', 'salary': 81000},
    'e4': {'name': 'Dee', 'dept': 'sales', 'salary': 48000},
}
# %% c2
dept_totals = {}
dept_counts = {}
for emp_id, rec in staff.items():
    d = rec['dept']
    dept_totals[d] = dept_totals.get(d, 0) + rec['salary']
    dept_counts[d] = dept_counts.get(d, 0) + 1
avg_salary = {d: dept_totals[d] / dept_counts[d] for d in dept_totals}
# ask: avg_salary['eng']
# ask: avg_salary['sales']
