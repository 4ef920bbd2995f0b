# Fixed dates, Decimal, Fraction, big integers and float formatting.
# %%
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal, getcontext
from fractions import Fraction
start = datetime(2024, 2, 28, 22, 30, tzinfo=timezone.utc)
start + timedelta(hours=3), (date(2024, 12, 25) - date(2024, 1, 1)).days
# %%
start.strftime("%Y/%m/%d %H:%M %Z"), start.isoformat(), date(2024, 2, 29).weekday()
# %%
getcontext().prec = 10
Decimal(1) / Decimal(7), Decimal("0.1") + Decimal("0.2"), 0.1 + 0.2
# %%
Fraction(3, 4) + Fraction(1, 6), Fraction("0.125"), float(Fraction(1, 3))
# %%
2 ** 200, (2 ** 200).bit_length(), round(2.675, 2), round(1234.5678, -2)
# %%
import math
math.isclose(0.1 + 0.2, 0.3), math.inf > 10 ** 300, math.nan == math.nan, divmod(-7, 2)
# %%
datetime.strptime("2024-13-01", "%Y-%m-%d")
