# %% c1
defaults = {'lr': 0.01, 'epochs': 10, 'batch': 32}
overrides = {'epochs': 25}
# %% c2
config = dict(defaults)
config.update(overrides)
steps = config['epochs'] * 100 // config['batch']
# ask: config['epochs']
# ask: steps
