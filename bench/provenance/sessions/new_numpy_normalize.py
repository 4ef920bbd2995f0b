# %% c1
import numpy as np
heights = [150.0, 165.0, 180.0, 172.0]
# %% c2
h = np.array(heights)
norm = (h - h.min()) / (h.max() - h.min())
tallest_idx = int(np.argmax(h))
above_mid = int((norm > 0.5).sum())
# ask: norm
# ask: tallest_idx
# ask: above_mid
