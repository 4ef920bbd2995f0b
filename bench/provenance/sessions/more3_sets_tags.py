# %% c1
post_a = ['python', 'data', 'pandas']
post_b = ['data', 'sql', 'python']
# %% c2
common = sorted(set(post_a) & set(post_b))
all_tags = set(post_a) | set(post_b)
n_tags = len(all_tags)
# ask: common
# ask: n_tags
