# %% c1
words = ['apple', 'avocado', 'banana', 'blueberry', 'cherry']
# %% c2
groups = {}
for w in words:
    groups.setdefault(w[0], []).append(w)
n_groups = len(groups)
b_words = groups['b']
# ask: b_words
# ask: n_groups
