# Deep expressions built at run time: eval and compile of a 1000-term sum.
# %%
eval('+'.join(['1'] * 1000))
# %%
expr = '+'.join(['x'] * 1000)
eval(expr, {"x": 2})
# %%
code = compile('+'.join(['1'] * 1000), "<deep>", "eval")
eval(code)
# %%
exec("total = " + " + ".join(str(i) for i in range(1000)))
total
# %%
eval("(" * 50 + "7" + ")" * 50)
