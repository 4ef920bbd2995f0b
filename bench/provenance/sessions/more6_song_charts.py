# %% c1
playlist = """Nina Simone - Feeling Good - 412
Radiohead - Reckoner - 198
Nina Simone - Sinnerman - 305
Bjork - Joga - 256
Radiohead - Nude - 233
Khruangbin - Maria Tambien - 187"""
top_n = 3
# %% c2
songs = []
for line in playlist.split('\n'):
    artist, title, plays = [part.strip() for part in line.split(' - ')]
    songs.append({'artist': artist, 'title': title, 'plays': int(plays)})
# %% c3
chart = sorted(songs, key=lambda s: s['plays'], reverse=True)[:top_n]
per_artist = {}
for s in songs:
    per_artist[s['artist']] = per_artist.get(s['artist'], 0) + s['plays']
top_artist = sorted(per_artist.items(), key=lambda kv: kv[1], reverse=True)[0][0]
# ask: chart[-1]['title']
# ask: top_artist
