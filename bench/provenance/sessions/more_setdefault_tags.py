# %% c1
posts = [
    ('intro to pandas', 'python'),
    ('loops explained', 'python'),
    ('sourdough basics', 'baking'),
    ('list comprehensions', 'python'),
    ('rye bread', 'baking'),
]
# %% c2
by_tag = {}
for title, tag in posts:
    by_tag.setdefault(tag, []).append(title)
n_python = len(by_tag['python'])
baking_titles = ', '.join(sorted(by_tag['baking']))
# ask: n_python
# ask: baking_titles
