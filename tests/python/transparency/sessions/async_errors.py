# Errors raised in awaited coroutines and tasks.
# %%
import asyncio
async def fail(msg):
    await asyncio.sleep(0)
    raise ValueError(msg)
await fail("boom")
# %%
try:
    await fail("caught")
except ValueError as e:
    print("caught:", e)
# %%
await asyncio.gather(fail("first"), asyncio.sleep(0))
# %%
res = await asyncio.gather(fail("a"), asyncio.sleep(0, result=1), return_exceptions=True)
[type(r).__name__ for r in res]
# %%
await asyncio.wait_for(asyncio.sleep(0, result="in time"), timeout=5)
