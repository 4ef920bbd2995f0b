# %% c1
from collections import Counter
answers = ['yes', 'no', 'yes', 'maybe', 'yes', 'no', 'yes']
# %% c2
tally = Counter(answers)
top_answer, top_count = tally.most_common(1)[0]
share_yes = tally['yes'] / len(answers)
# ask: top_answer
# ask: share_yes
