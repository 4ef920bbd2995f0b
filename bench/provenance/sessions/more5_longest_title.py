# %% c1
titles = ['Dune', 'The Left Hand of Darkness', 'Neuromancer', 'Hyperion', 'Solaris']
years = [1965, 1969, 1984, 1989, 1961]
ratings = [4.3, 4.1, 3.9, 4.2, 4.0]
# %% c2
longest = max(titles, key=len)
pos = titles.index(longest)
oldest = min(zip(years, titles))[1]
by_rating = sorted(titles, key=lambda t: ratings[titles.index(t)], reverse=True)
# ask: pos
# ask: by_rating[1]
