# %% c1
import contextlib
config = {'lr': 0.01, 'epochs': 3}
batch = 32
# %% c2
with contextlib.suppress(KeyError):
    batch = config['batch_size']
steps = config['epochs'] * batch
# ask: steps
