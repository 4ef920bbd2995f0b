# %% c1
books = [
    {'title': 'Dune', 'year': 1965, 'rating': 4.3},
    {'title': 'Neuromancer', 'year': 1984, 'rating': 3.9},
    {'title': 'Foundation', 'year': 1951, 'rating': 4.2},
    {'title': 'Hyperion', 'year': 1989, 'rating': 4.25},
]
# %% c2
by_rating = sorted(books, key=lambda b: b['rating'], reverse=True)
top_two = [b['title'] for b in by_rating[:2]]
oldest = min(books, key=lambda b: b['year'])['title']
# ask: top_two
# ask: oldest
