# %% c1
boxes = [42, 18, 75, 30, 66, 12, 90, 25, 51]
max_load = 250
max_boxes = 6
# %% c2
load = 0
i = 0
trip = []
while i < len(boxes) and len(trip) < max_boxes:
    if load + boxes[i] > max_load:
        break
    load += boxes[i]
    trip.append(boxes[i])
    i += 1
left_behind = boxes[i:]
# %% c3
remaining_weight = sum(left_behind)
print(len(trip), load, remaining_weight)
# ask: load
# ask: remaining_weight
