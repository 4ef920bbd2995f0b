# %% c1
tasks = ['wash', 'dry', 'fold']
done = {'wash'}
# %% c2
lines = []
for n, task in enumerate(tasks, start=1):
    mark = 'x' if task in done else ' '
    lines.append(f'{n}. [{mark}] {task}')
report = '\n'.join(lines)
remaining = [t for t in tasks if t not in done]
# ask: lines[1]
# ask: remaining
