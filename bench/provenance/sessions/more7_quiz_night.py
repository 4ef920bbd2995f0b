# %% c1
scores = {'The Quizzly Bears': 41, 'Les Quizerables': 47, 'Trivia Newton John': 39, 'Agatha Quiztie': 44}
joker_round = {'The Quizzly Bears': 6, 'Les Quizerables': 0, 'Trivia Newton John': 9, 'Agatha Quiztie': 5}
penalty = {'Les Quizerables': 3}
# %% c2
final = {}
for team, pts in scores.items():
    final[team] = pts + joker_round.get(team, 0) - penalty.get(team, 0)
winner = max(final, key=final.get)
last = min(final, key=final.get)
# %% c3
margin = final[winner] - sorted(final.values())[-2]
podium = sorted(final, key=final.get, reverse=True)[:3]
# ask: winner
# ask: podium[2]
