# %% c1
point = (3.0, 4.0)
lo, hi = 2, 20
# %% c2
x, y = point
dist = (x ** 2 + y ** 2) ** 0.5
clipped = min(max(dist, lo), hi)
# ask: dist
# ask: clipped
