# %% c1
reviews = [
    "Great coffee, friendly staff. Great pastries too!",
    "Coffee was cold and the staff seemed tired.",
    "not bad. great view, average coffee",
    "Terrible wait. Coffee fine.",
]
stopwords = {'the', 'and', 'was', 'too', 'a'}
# %% c2
counts = {}
for review in reviews:
    for word in review.lower().split():
        word = word.strip('.,!?')
        if word in stopwords:
            continue
        counts[word] = counts.get(word, 0) + 1
# %% c3
positive = [r for r in reviews if r.lower().startswith('great')]
top_words = sorted(counts, key=lambda w: (-counts[w], w))[:3]
headline = ' | '.join(w.upper() for w in top_words)
# ask: counts['great']
# ask: headline
