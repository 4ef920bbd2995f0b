# %% c1
import numpy as np
sales = np.array([120, 340, 90, 410, 260])
months = ['jan', 'feb', 'mar', 'apr', 'may']
# %% c2
best_month = months[int(np.argmax(sales))]
above_avg = int((sales > sales.mean()).sum())
# ask: best_month
# ask: above_avg
