# %% c1
weights = [0.2, 0.5, 0.3]
scores = [80, 65, 90]
bonus = 5
# %% c2
weighted = sum(w * s for w, s in zip(weights, scores))
final = weighted + bonus
grade = 'A' if final >= 80 else 'B'
# ask: weighted
# ask: grade
