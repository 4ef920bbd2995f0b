# Top-level await, async functions, gather, async generators and comprehensions.
# %%
import asyncio
async def double(x):
    await asyncio.sleep(0)
    return x * 2
await double(21)
# %%
results = await asyncio.gather(*(double(i) for i in range(5)))
results
# %%
async def ticker(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i
[i async for i in ticker(4)]
# %%
squares = {i: i * i async for i in ticker(3)}
evens = [i for i in range(6) if i % 2 == 0]
squares, evens
# %%
class Resource:
    async def __aenter__(self):
        print("open")
        return self
    async def __aexit__(self, *exc):
        print("close")
async with Resource() as r:
    print("using")
# %%
async def consume():
    total = 0
    async for v in ticker(5):
        total += v
    return total
print(await consume())
# %%
task = asyncio.ensure_future(double(5))
await task
