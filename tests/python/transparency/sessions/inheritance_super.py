# Inheritance, super(), the MRO, abstract classes.
# %%
from abc import ABC, abstractmethod

class Base:
    def __init__(self):
        self.log = ["Base"]
    def hello(self):
        return "base"

class Left(Base):
    def __init__(self):
        super().__init__()
        self.log.append("Left")
    def hello(self):
        return "left>" + super().hello()

class Right(Base):
    def __init__(self):
        super().__init__()
        self.log.append("Right")
    def hello(self):
        return "right>" + super().hello()

class Both(Left, Right):
    pass

b = Both()
b.log, b.hello(), [c.__name__ for c in Both.__mro__]
# %%
class Model(ABC):
    @abstractmethod
    def fit(self, x): ...

class Mean(Model):
    def fit(self, x):
        self.mean_ = sum(x) / len(x)
        return self

Mean().fit([1, 2, 3]).mean_
# %%
Model()
# %%
issubclass(Both, Base), isinstance(b, Right), Both.__bases__ == (Left, Right)
