# %% c1
runners = ['kim', 'lee', 'max', 'ola']
times = [12.4, 11.9, 13.1, 12.0]
# %% c2
fastest_time = min(times)
winner = runners[times.index(fastest_time)]
n_under_12_5 = sum(1 for t in times if t < 12.5)
# ask: winner
# ask: n_under_12_5
