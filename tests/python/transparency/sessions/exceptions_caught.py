# try/except/else/finally, custom exceptions, chained exceptions caught.
# %%
class ValidationError(ValueError):
    def __init__(self, field, msg):
        super().__init__(f"{field}: {msg}")
        self.field = field

def validate(row):
    if row.get("age", 0) < 0:
        raise ValidationError("age", "negative")
    return row

rows = [{"age": 3}, {"age": -1}, {}]
for row in rows:
    try:
        validate(row)
    except ValidationError as e:
        print("bad", e.field, e, repr(e))
    else:
        print("ok", row)
    finally:
        print("checked")
# %%
try:
    try:
        {}["k"]
    except KeyError as e:
        raise RuntimeError("lookup failed") from e
except RuntimeError as err:
    print(type(err.__cause__).__name__, err.__cause__, err.__suppress_context__)
# %%
import traceback
try:
    int("x")
except ValueError:
    print(traceback.format_exc())
# %%
def risky(n):
    return 10 // n

results = []
for n in (2, 0, 5):
    try:
        results.append(risky(n))
    except ZeroDivisionError as e:
        results.append(str(e))
results
# %%
try:
    raise ExceptionGroup("many", [ValueError(1), TypeError(2)])
except* ValueError as eg:
    print("values", eg.exceptions)
except* TypeError as eg:
    print("types", eg.exceptions)
