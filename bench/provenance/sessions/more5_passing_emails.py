# %% c1
students = [
    {'name': 'Lena', 'email': 'lena@uni.edu', 'score': 78, 'opted_in': True},
    {'name': 'Omar', 'email': 'omar@gmail.com', 'score': 55, 'opted_in': True},
    {'name': 'Priya', 'email': 'priya@uni.edu', 'score': 91, 'opted_in': False},
    {'name': 'Tom', 'email': 'tom@outlook.com', 'score': 64, 'opted_in': True},
]
pass_mark = 60
# %% c2
passing = [s for s in students if s['score'] >= pass_mark]
mailing = [s['email'] for s in passing if s['opted_in']]
uni_only = [e for e in mailing if e.endswith('@uni.edu')]
# ask: mailing
# ask: uni_only
