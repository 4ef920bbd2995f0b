# %% c1
from collections import Counter
clicks = ['red', 'blue', 'red', 'green', 'red', 'blue']
# %% c2
counts = Counter(clicks)
most, most_n = counts.most_common(1)[0]
blue_share = counts['blue'] / len(clicks)
# ask: most
# ask: blue_share
