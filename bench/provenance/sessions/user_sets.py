# %% c1
a_users = {'ana', 'bo', 'cy'}
b_users = {'bo', 'dan'}
# %% c2
both = sorted(a_users & b_users)
only_a = len(a_users - b_users)
# ask: both
# ask: only_a
