# %% c1
from contextlib import contextmanager

log = []

@contextmanager
def stage(name):
    log.append('start ' + name)
    yield
    log.append('end ' + name)
# %% c2
step_name = 'clean'
with stage(step_name):
    rows_kept = 40 - 3
# ask: log
# ask: rows_kept
