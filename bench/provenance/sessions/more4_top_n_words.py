# %% c1
words = ['data', 'model', 'data', 'loss', 'model', 'data', 'epoch']
n = 2
# %% c2
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: kv[1], reverse=True)[:n]
top_words = [w for w, _ in top]
# ask: top_words
# ask: freq['model']
