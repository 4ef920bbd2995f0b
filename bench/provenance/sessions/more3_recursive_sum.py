# %% c1
def total_size(tree):
    if isinstance(tree, int):
        return tree
    return sum(total_size(child) for child in tree)
# %% c2
sizes = [4, [2, 3], [1, [5, 6]]]
grand_total = total_size(sizes)
left = total_size(sizes[1])
# ask: grand_total
# ask: left
