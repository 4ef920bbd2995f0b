# A user's sys.setprofile profiler, kept across cells.
# %%
import sys
profile_log = []
def profiler(frame, event, arg):
    if event in ("call", "return") and frame.f_globals.get("__name__") == "__main__":
        profile_log.append((event, frame.f_code.co_name))

def work(n):
    return sum(range(n))

def driver():
    return work(3) + work(4)
# %%
sys.setprofile(profiler)
driver()
# %%
sys.getprofile() is profiler
# %%
work(10)
# %%
sys.setprofile(None)
profile_log
# %%
sys.getprofile() is None
