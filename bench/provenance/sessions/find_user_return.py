# %% c1
def find_age(users, name):
    for u in users:
        if u['name'] == name:
            return u['age']
    return -1
# %% c2
users = [{'name': 'ana', 'age': 31}, {'name': 'bo', 'age': 25}, {'name': 'cy', 'age': 40}]
who = 'bo'
# %% c3
age = find_age(users, who)
# ask: age
