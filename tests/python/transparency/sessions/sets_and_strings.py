# Sets edited in place; printed sets of strings (the hash seed is fixed).
# %%
seen = set(range(5))
seen.add(10)
seen |= {20, 3}
seen -= {0}
seen
# %%
words = {"banana", "apple", "cherry", "date"}
print(words)
print(sorted(words))
# %%
other = words
words.discard("date")
other.add("elder")
print(sorted(other), words is other)
# %%
frozen = frozenset(words)
frozen & {"apple", "zzz"}, frozen <= words, len(frozen)
# %%
{c for c in "mississippi"}
