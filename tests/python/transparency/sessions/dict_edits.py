# A dict edited in place: counters, update, setdefault, pop.
# %%
counts = {"apple": 1, "pear": 2}
counts["apple"] += 1
counts
# %%
counts.update(plum=5, pear=0)
counts.setdefault("fig", []).append("x")
counts.setdefault("fig", []).append("y")
print(counts)
# %%
removed = counts.pop("plum")
missing = counts.pop("kiwi", None)
print(removed, missing, sorted(counts))
# %%
for key in list(counts):
    if key.startswith("p"):
        del counts[key]
counts
# %%
counts | {"z": 26}
# %%
merged = {**counts, "apple": 0}
merged, counts
