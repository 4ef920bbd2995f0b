# Functions that read globals changed after the function was defined; each
# call reads the latest values.
# %%
rate = 0.1
def interest(x):
    return x * rate
a = interest(100)
a
# %%
rate = 0.2
b = interest(100)
b
# %%
fees = {"base": 1}
def cost(x):
    return interest(x) + fees["base"]
cost(50)
# %%
fees["base"] = 5
cost(50)
# %%
def interest(x):
    return x * rate * 2
cost(50), interest(10)
