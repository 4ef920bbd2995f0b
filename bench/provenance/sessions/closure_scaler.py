# %% c1
def make_scaler(factor):
    def scale(xs):
        return [x * factor for x in xs]
    return scale
# %% c2
k = 2.5
data = [1, 2, 3]
scaler = make_scaler(k)
scaled = scaler(data)
# ask: scaled
# ask: scaled[1]
