# %% c1
morning = ['ann', 'bob', 'cid', 'dee']
evening = ['bob', 'dee', 'eve']
# %% c2
both = set(morning) & set(evening)
only_morning = sorted(set(morning) - set(evening))
jaccard = len(both) / len(set(morning) | set(evening))
# ask: only_morning
# ask: jaccard
