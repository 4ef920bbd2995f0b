# %% c1
rent = 2400
utilities = 180
roommates = ['ana', 'ben', 'chloe', 'dev']
away_months = {'ben': 1, 'dev': 0, 'chloe': 2}
room_size = {'ana': 14, 'ben': 10, 'chloe': 12, 'dev': 10}
# %% c2
total_area = sum(room_size.values())
shares = {}
for person in roommates:
    if away_months.get(person, 0) >= 2:
        shares[person] = round(rent * room_size[person] / total_area, 2)
        continue
    part = rent * room_size[person] / total_area + utilities / len(roommates)
    shares[person] = round(part, 2)
# %% c3
biggest_payer = max(shares, key=shares.get)
owed_by_ana = shares['ana']
# ask: shares['chloe']
# ask: biggest_payer
