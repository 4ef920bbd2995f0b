# %% c1
import numpy as np
splits_min = np.array([4.9, 5.0, 5.1, 5.0, 5.3, 5.2, 5.6, 5.4, 5.9, 6.1])
km_marks = np.arange(1, 11)
goal_pace = 5.2
# %% c2
elapsed = np.cumsum(splits_min)
slow = splits_min > goal_pace
first_slow_km = km_marks[np.argmax(slow)]
n_slow = int(slow.sum())
# %% c3
worst_km = int(km_marks[np.argmax(splits_min)])
halfway_time = elapsed[4]
finish_time = round(float(elapsed[-1]), 1)
# ask: halfway_time
# ask: first_slow_km
