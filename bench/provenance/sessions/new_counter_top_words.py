# %% c1
from collections import Counter
review = "Great food, great service. The food was great but slow service"
stopwords = {'the', 'was', 'but'}
# %% c2
words = [w.strip('.,').lower() for w in review.split()]
words = [w for w in words if w not in stopwords]
counts = Counter(words)
top_word, top_n = counts.most_common(1)[0]
# ask: top_word
# ask: top_n
