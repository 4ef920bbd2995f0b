# %% c1
lows = [12, 9, 15]
highs = [20, 18, 25]
# %% c2
lowest = min(lows)
spread = max(highs) - min(lows)
# ask: lowest
# ask: spread
