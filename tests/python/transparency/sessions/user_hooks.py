# The user's own pre_run_cell / post_run_cell callbacks and post_execute.
# %%
log = []
def before(info):
    log.append(("pre", info.raw_cell.splitlines()[0] if info.raw_cell else "", info.store_history))
def after(result):
    log.append(("post", result.success, type(result.error_in_exec).__name__))
ip = get_ipython()
ip.events.register("pre_run_cell", before)
ip.events.register("post_run_cell", after)
# %%
x = 1
# %%
1 / 0
# %%
ip.run_cell("inner = 2")
inner
# %%
ip.events.unregister("pre_run_cell", before)
ip.events.unregister("post_run_cell", after)
for entry in log:
    print(entry)
# %%
def printer():
    print("post_execute ran")
ip.events.register("post_execute", printer)
# %%
y = 2
# %%
ip.events.unregister("post_execute", printer)
