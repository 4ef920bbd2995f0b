# %% c1
from collections import Counter
answers = ['Dog', 'cat', 'dog ', 'fish', 'Cat', 'dog', 'hamster', 'cat', 'none']
ignore = {'none'}
# %% c2
clean = [a.strip().lower() for a in answers]
counts = Counter(a for a in clean if a not in ignore)
top_pet, top_n = counts.most_common(1)[0]
share_cats = counts['cat'] / sum(counts.values())
# ask: top_pet
# ask: counts['fish']
