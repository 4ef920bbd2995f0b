# %% c1
calls = 0

def safe_ratio(a, b):
    global calls
    try:
        return a / b
    except ZeroDivisionError:
        return float('nan')
    finally:
        calls += 1
# %% c2
hits = 45
attempts = 60
ratio = safe_ratio(hits, attempts)
# ask: ratio
# ask: calls
