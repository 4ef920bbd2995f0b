# %% c1
text = "the quick brown fox jumps over the extraordinarily lazy dog near the riverbank"
stopwords = {'the', 'over', 'near'}
min_len = 4
# %% c2
words = [w for w in text.split() if w not in stopwords]
longest = max(words, key=len)
by_length = sorted(words, key=len)
# %% c3
long_words = [w for w in words if len(w) >= min_len]
shortest_long = min(long_words, key=len)
avg_len = round(sum(map(len, long_words)) / len(long_words), 2)
# ask: longest
# ask: avg_len
