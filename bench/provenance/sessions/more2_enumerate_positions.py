# %% c1
queue = ['ana', 'ben', 'cleo', 'dev']
target = 'cleo'
# %% c2
position = -1
for i, person in enumerate(queue):
    if person == target:
        position = i
        break
ahead = queue[:position]
# ask: position
# ask: ahead
