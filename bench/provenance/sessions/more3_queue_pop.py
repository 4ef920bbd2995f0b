# %% c1
jobs = [3, 1, 4, 1, 5]
capacity = 8
# %% c2
queue = list(jobs)
used = 0
taken = []
while queue:
    job = queue.pop(0)
    if used + job > capacity:
        break
    used += job
    taken.append(job)
# ask: used
# ask: taken
