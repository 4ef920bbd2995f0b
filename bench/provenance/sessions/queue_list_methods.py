# %% c1
queue = ['a', 'b']
extra = ['d', 'e']
# %% c2
queue.append('c')
queue.extend(extra)
queue.insert(0, 'z')
first = queue.pop(0)
last = queue.pop()
# ask: first
# ask: last
# ask: queue
