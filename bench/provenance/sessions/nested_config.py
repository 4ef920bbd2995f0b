# %% c1
config = {'model': {'lr': 0.01, 'epochs': 5}, 'data': {'batch': 32, 'n': 1000}}
# %% c2
config['model']['epochs'] = 10
steps = config['model']['epochs'] * (config['data']['n'] // config['data']['batch'])
lr = config['model']['lr']
# ask: steps
# ask: lr
