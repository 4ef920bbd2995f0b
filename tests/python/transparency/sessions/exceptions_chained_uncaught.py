# Uncaught chained exceptions: explicit (from), implicit, suppressed (from None).
# %%
def fetch(d, key):
    try:
        return d[key]
    except KeyError as e:
        raise LookupError(f"no {key}") from e

fetch({}, "a")
# %%
try:
    1 / 0
except ZeroDivisionError:
    undefined_name_here
# %%
def clean():
    try:
        int("z")
    except ValueError:
        raise TypeError("wanted a number") from None

clean()
# %%
raise ExceptionGroup("batch failed", [ValueError("row 1"), KeyError("row 2")])
# %%
e = ValueError("with note")
e.add_note("a note added by the user")
raise e
