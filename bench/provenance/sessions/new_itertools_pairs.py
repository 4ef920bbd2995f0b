# %% c1
import itertools
cities = {'A': (0, 0), 'B': (3, 4), 'C': (6, 8)}
# %% c2
import math
dists = {}
for (a, pa), (b, pb) in itertools.combinations(cities.items(), 2):
    dists[a + b] = math.dist(pa, pb)
farthest = max(dists, key=dists.get)
ab = dists['AB']
# ask: farthest
# ask: ab
