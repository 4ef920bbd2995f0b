# %% c1
unit = 'mi'
verbose = False
# %% c2
def convert(d):
    if unit == 'mi':
        return round(d * 0.621, 3)
    return d

distances = [5.0, 10.0, 21.1]
converted = [convert(d) for d in distances]
mode = 'debug' if verbose else 'quiet'
# ask: converted
# ask: mode
