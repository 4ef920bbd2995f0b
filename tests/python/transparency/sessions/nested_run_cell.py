# get_ipython().run_cell and run_line_magic called from a cell.
# %%
ip = get_ipython()
r = ip.run_cell("inner = 41 + 1\nprint('inner ran', inner)")
r.success, inner
# %%
r2 = ip.run_cell("1 / 0")
r2.success, type(r2.error_in_exec).__name__
# %%
r3 = ip.run_cell("inner * 2")
r3.result
# %%
for code in ["a1 = 1", "a2 = a1 + 1", "a3 = a2 + 1"]:
    ip.run_cell(code)
a3
# %%
ip.run_line_magic("who_ls", "")
# %%
ip.ex("ex_value = 7")
ip.ev("ex_value * 6")
