# %time and %timeit with their output captured or quiet: only the values
# they leave behind are shown.
# %%
%%capture timing
%time total = sum(range(100))
# %%
total, "Wall time" in timing.stdout
# %%
res = %timeit -n1 -r1 -o -q sum(range(10))
res.loops, res.repeat, len(res.all_runs)
# %%
%%capture timing2
%%time
squares = [i * i for i in range(10)]
# %%
squares[-1], "Wall time" in timing2.stdout
# %%
%%capture timing3
%time 1 / 0
# %%
"ZeroDivisionError" in timing3.stdout
