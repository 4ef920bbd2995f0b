# %% c1
def split_bill(total, people, tip=0.15, round_to=1):
    with_tip = total * (1 + tip)
    each = with_tip / people
    return round(each / round_to + 0.4999) * round_to
# %% c2
dinner = split_bill(86.40, 4)
lunch = split_bill(31.0, 2, tip=0.10)
# %% c1
def split_bill(total, people, tip=0.18, round_to=5):
    with_tip = total * (1 + tip)
    each = with_tip / people
    return round(each / round_to + 0.4999) * round_to
# %% c3
party = split_bill(412.0, 9, round_to=1)
# ask: dinner
# ask: party
