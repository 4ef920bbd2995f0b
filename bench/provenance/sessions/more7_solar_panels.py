# %% c1
import numpy as np
kwh = np.array([3.1, 4.8, 0.9, 5.6, 6.2, 2.4, 5.9])
days = np.array(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
cloudy_below = 3.0
# %% c2
sunny = kwh >= cloudy_below
sunny_total = kwh[sunny].sum()
best_day = days[np.argmax(kwh)]
running = np.cumsum(kwh)
# %% c1
import numpy as np
kwh = np.array([3.1, 4.8, 0.9, 5.6, 6.2, 2.4, 5.9])
days = np.array(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
cloudy_below = 5.0
# %% c2
sunny = kwh >= cloudy_below
sunny_total = kwh[sunny].sum()
best_day = days[np.argmax(kwh)]
running = np.cumsum(kwh)
# ask: sunny_total
# ask: running[3]
