# %% c1
import numpy as np
days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
highs = np.array([21.5, 24.0, 27.8, 30.2, 29.1, 19.4, 22.6])
lows = np.array([12.1, 13.0, 16.4, 18.9, 17.2, 10.8, 11.5])
heat_threshold = 28.0
# %% c2
spread = highs - lows
hot = highs > heat_threshold
label = np.where(hot, 'hot', 'ok')
widest_day = days[int(np.argmax(spread))]
coldest_night = days[int(np.argmin(lows))]
# %% c3
p90_high = np.percentile(highs, 90)
mean_low_hot_days = lows[hot].mean()
# ask: widest_day
# ask: mean_low_hot_days
