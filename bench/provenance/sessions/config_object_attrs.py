# %% c1
class Config:
    pass

cfg = Config()
cfg.rate = 0.05
cfg.years = 10
cfg.principal = 2500
# %% c2
def grow(c):
    return c.principal * (1 + c.rate) ** c.years

final = round(grow(cfg), 2)
# ask: final
