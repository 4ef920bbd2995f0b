# Pickling functions, classes and instances defined in cells.
# %%
import pickle
def double(x):
    return 2 * x
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, other):
        return (self.x, self.y) == (other.x, other.y)
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
# %%
pickle.loads(pickle.dumps(double))(21)
# %%
p = Point(1, 2)
q = pickle.loads(pickle.dumps(p))
q, q == p, q is p
# %%
data = {"points": [Point(i, -i) for i in range(3)], "fn": double}
restored = pickle.loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
restored["points"], restored["fn"] is double
# %%
try:
    pickle.dumps(lambda v: v)
    print("pickled")
except Exception as e:
    print(type(e).__name__)
# %%
with open("data.pkl", "wb") as fh:
    pickle.dump(data, fh)
with open("data.pkl", "rb") as fh:
    again = pickle.load(fh)
again["points"][2]
# %%
import copy
copy.deepcopy(p), copy.copy(data)["fn"] is double
