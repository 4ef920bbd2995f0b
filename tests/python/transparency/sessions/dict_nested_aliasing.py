# Nested dicts shared between names; shallow and deep copies.
# `shallow` and `deep` are copies made before `config` changed: truly stale;
# `run` is `config` itself: never stale.
# allow-warning: 3 shallow,deep
# allow-warning: 4 shallow
# allow-warning: 5 shallow,deep
# %%
import copy
config = {"model": {"lr": 0.1, "layers": [64, 32]}, "seed": 1}
run = config
shallow = dict(config)
deep = copy.deepcopy(config)
# %%
config["model"]["lr"] = 0.01
config["model"]["layers"].append(16)
config["seed"] = 2
# %%
print(run)
print(shallow)
print(deep)
# %%
run["name"] = "exp"
sorted(config), sorted(shallow)
# %%
inner = config["model"]
inner["lr"] *= 10
config["model"]["lr"], shallow["model"]["lr"], deep["model"]["lr"]
