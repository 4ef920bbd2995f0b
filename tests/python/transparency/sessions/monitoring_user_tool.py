# A coverage-like tool of the user's own on sys.monitoring (3.12+): line
# events of user functions, DISABLE, restart_events.
# %%
import sys
HAVE = hasattr(sys, "monitoring")
def scored(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y
HAVE
# %%
seen = []
if HAVE:
    mon = sys.monitoring
    TOOL = mon.COVERAGE_ID
    mon.use_tool_id(TOOL, "user-coverage")
    def on_line(code, line):
        if code.co_name == "scored":
            seen.append(line - code.co_firstlineno)
        return mon.DISABLE
    mon.register_callback(TOOL, mon.events.LINE, on_line)
    mon.set_events(TOOL, mon.events.LINE)
scored(3), scored(4)
# %%
scored(-1)
# %%
if HAVE:
    mon.restart_events()
scored(5)
# %%
if HAVE:
    mon.set_events(TOOL, 0)
    mon.free_tool_id(TOOL)
sorted(seen), [mon.get_tool(i) for i in range(6)] if HAVE else None
