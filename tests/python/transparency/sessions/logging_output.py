# logging to stderr through a handler made in an earlier cell.
# %%
import logging
logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s", force=True)
log = logging.getLogger("analysis")
log.info("loaded %d rows", 10)
# %%
log.warning("missing values in %s", "col")
log.debug("not shown")
# %%
try:
    1 / 0
except ZeroDivisionError:
    log.exception("failed")
# %%
log.setLevel(logging.ERROR)
log.warning("hidden now")
log.error("shown")
# %%
import io
buffer = io.StringIO()
handler = logging.StreamHandler(buffer)
log.addHandler(handler)
log.error("into the buffer too")
buffer.getvalue()
