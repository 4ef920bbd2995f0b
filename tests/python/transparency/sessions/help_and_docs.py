# help() on functions defined in cells; docstrings and source.
# %%
def mean(values):
    """Return the arithmetic mean of the values.

    Raises ZeroDivisionError on an empty input.
    """
    return sum(values) / len(values)
help(mean)
# %%
class Stats:
    """Running statistics."""
    def add(self, v):
        """Add one value."""
help(Stats.add)
# %%
mean.__doc__.splitlines()[0], Stats.__doc__, mean.__module__, Stats.__module__
# %%
import inspect
print(inspect.getsource(Stats))
