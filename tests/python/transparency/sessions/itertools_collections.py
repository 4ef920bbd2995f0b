# itertools and collections: Counter, defaultdict, deque, OrderedDict, groupby.
# %%
import itertools
from collections import Counter, OrderedDict, defaultdict, deque
words = "the cat and the hat and the bat".split()
counts = Counter(words)
counts.most_common(2), counts["the"], counts["zebra"]
# %%
by_len = defaultdict(list)
for w in words:
    by_len[len(w)].append(w)
by_len
# %%
dq = deque([1, 2, 3], maxlen=4)
dq.appendleft(0); dq.append(4); dq.rotate(1)
dq
# %%
od = OrderedDict(a=1, b=2, c=3)
od.move_to_end("a")
od.popitem(last=False), od
# %%
[(k, list(g)) for k, g in itertools.groupby(sorted(words), key=len)]
# %%
list(itertools.islice(itertools.count(10, 5), 4)), list(itertools.chain("ab", [1])), list(itertools.product("ab", repeat=2))
# %%
list(itertools.accumulate([1, 2, 3, 4])), list(itertools.combinations(range(4), 2))[:3], list(itertools.zip_longest("ab", "xyz", fillvalue="-"))
# %%
counts.update(["cat", "cat"])
counts - Counter(the=3)
