# %% c1
text = 'the cat sat on the mat the end'
min_len = 3
# %% c2
freq = {}
for w in text.split():
    if len(w) >= min_len:
        freq[w] = freq.get(w, 0) + 1
top_word = max(freq, key=freq.get)
n_distinct = len(freq)
# ask: freq['the']
# ask: top_word
# ask: n_distinct
