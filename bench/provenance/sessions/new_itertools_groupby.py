# %% c1
from itertools import groupby
log = ['ok', 'ok', 'fail', 'fail', 'fail', 'ok', 'fail']
# %% c2
runs = [(k, len(list(g))) for k, g in groupby(log)]
longest_fail = max(n for k, n in runs if k == 'fail')
n_runs = len(runs)
# ask: longest_fail
# ask: n_runs
