# A vector class with operators, in-place operators, iteration and hashing.
# %%
class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __repr__(self):
        return f"Vec{tuple(self.xs)}"
    def __add__(self, other):
        return Vec(*[a + b for a, b in zip(self.xs, other.xs)])
    def __iadd__(self, other):
        for i, b in enumerate(other.xs):
            self.xs[i] += b
        return self
    def __mul__(self, k):
        return Vec(*[a * k for a in self.xs])
    __rmul__ = __mul__
    def __eq__(self, other):
        return isinstance(other, Vec) and self.xs == other.xs
    def __hash__(self):
        return hash(tuple(self.xs))
    def __len__(self):
        return len(self.xs)
    def __getitem__(self, i):
        return self.xs[i]
    def __iter__(self):
        return iter(self.xs)
    def __bool__(self):
        return any(self.xs)

v = Vec(1, 2)
w = v
v += Vec(10, 10)
v, w, v is w
# %%
v + Vec(1, 1), 2 * v, v * 3, len(v), v[-1], list(v), bool(Vec(0, 0))
# %%
{Vec(1, 2): "a", Vec(1, 2): "b"}
# %%
v + 5
