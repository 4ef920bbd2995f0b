# %% c1
import json
raw = '{"model": "rf", "params": {"n_estimators": 100, "max_depth": 5}, "seed": 42}'
# %% c2
cfg = json.loads(raw)
depth = cfg['params']['max_depth']
n_trees = cfg['params'].get('n_estimators', 10)
budget = depth * n_trees
# ask: budget
# ask: cfg['seed']
