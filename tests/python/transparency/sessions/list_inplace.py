# A list edited in place across cells.
# %%
scores = [3, 1, 2]
scores
# %%
scores.append(4)
scores.sort()
scores
# %%
scores.extend([9, 8])
scores[0] = 10
print(scores)
# %%
del scores[1]
scores.insert(0, -1)
scores.remove(9)
scores
# %%
scores.reverse()
scores += [100]
print(scores, len(scores), sum(scores))
# %%
popped = scores.pop()
print(popped, scores.index(10), scores.count(8))
scores[1:3] = ["a", "b", "c"]
scores
