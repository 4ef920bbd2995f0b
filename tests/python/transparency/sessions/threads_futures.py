# Threads and a thread pool with deterministic results (no multiprocessing).
# %%
import threading
from concurrent.futures import ThreadPoolExecutor
results = [None] * 4
def work(i):
    results[i] = sum(range(i * 1000))
threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
results
# %%
with ThreadPoolExecutor(max_workers=2) as pool:
    squares = list(pool.map(lambda x: x * x, range(6)))
squares
# %%
lock = threading.Lock()
counter = 0
def bump(n):
    global counter
    for _ in range(n):
        with lock:
            counter += 1
ts = [threading.Thread(target=bump, args=(500,)) for _ in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]
counter
# %%
def fails():
    raise ValueError("in a worker")
with ThreadPoolExecutor(max_workers=1) as pool:
    future = pool.submit(fails)
type(future.exception()).__name__, str(future.exception())
# %%
future.result()
