# %% c1
scores = [72, 88, 95, 61, 79]
# %% c2
mean = sum(scores) / len(scores)
above = [s for s in scores if s > mean]
# ask: above
# ask: mean
