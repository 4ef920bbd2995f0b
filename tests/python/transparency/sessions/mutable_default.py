# The classic mutable default argument, across cells.
# `result` came from the old add_item, redefined since: truly stale.
# allow-warning: 5 result
# %%
def add_item(item, bucket=[]):
    bucket.append(item)
    return bucket

add_item(1)
# %%
add_item(2)
# %%
result = add_item(3)
print(result, add_item.__defaults__)
# %%
def add_item(item, bucket=None):
    if bucket is None:
        bucket = []
    bucket.append(item)
    return bucket

add_item(1), add_item(2)
# %%
result
