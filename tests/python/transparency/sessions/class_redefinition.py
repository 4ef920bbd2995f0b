# A class redefined in a later cell; old instances keep the old class.
# `sq` was made by the old Square, redefined since: truly stale.
# allow-warning: 3 sq
# allow-warning: 4 sq
# %%
class Shape:
    sides = 0
    def describe(self):
        return f"{type(self).__name__} with {self.sides} sides"

class Square(Shape):
    sides = 4

sq = Square()
sq.describe()
# %%
class Square(Shape):
    sides = 4
    def describe(self):
        return "a square"

new = Square()
sq.describe(), new.describe(), isinstance(sq, Square), type(sq) is type(new)
# %%
Shape.describe = lambda self: "patched"
sq.describe(), new.describe(), Shape().describe()
# %%
sq.__class__ = Square
sq.describe()
