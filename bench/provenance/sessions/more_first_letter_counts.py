# %% c1
names = ['alice', 'bob', 'anna', 'carl', 'beth', 'amir']
# %% c2
by_letter = {}
for name in names:
    letter = name[0].upper()
    by_letter[letter] = by_letter.get(letter, 0) + 1
most_common_letter = max(by_letter, key=by_letter.get)
# ask: by_letter['A']
# ask: most_common_letter
