# %% c1
text = 'the cat and the hat and the bat'
# %% c2
counts = {}
for w in text.split():
    counts[w] = counts.get(w, 0) + 1
top = max(counts, key=counts.get)
n_the = counts['the']
# ask: top
# ask: n_the
