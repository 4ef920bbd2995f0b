# %% c1
players = [
    ('Okafor', 2150, 7.5),
    ('Lindqvist', 2230, 6.0),
    ('Tanaka', 1990, 7.5),
    ('Moreau', 2310, 5.5),
    ('Silva', 2075, 8.0),
]
# %% c2
standings = sorted(players, key=lambda p: (p[2], p[1]), reverse=True)
table = []
for rank, (name, rating, pts) in enumerate(standings, start=1):
    table.append(f"{rank}. {name} ({rating}) {pts}")
# %% c3
by_rating = sorted(players, key=lambda p: p[1], reverse=True)
rating_rank = {p[0]: i for i, p in enumerate(by_rating, start=1)}
second_place = standings[1][0]
# ask: second_place
# ask: rating_rank['Tanaka']
