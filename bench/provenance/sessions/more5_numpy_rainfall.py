# %% c1
import numpy as np
rain_mm = np.array([0.0, 3.2, 12.5, 0.4, 0.0, 22.1, 7.8, 0.0, 1.1, 15.0])
wet_threshold = 1.0
# %% c2
wet = rain_mm > wet_threshold
wet_days = int(wet.sum())
running = np.cumsum(rain_mm)
wettest_day = int(np.argmax(rain_mm))
# %% c3
mean_wet = rain_mm[wet].mean()
half_reached = int(np.argmax(running >= running[-1] / 2))
# ask: wet_days
# ask: half_reached
