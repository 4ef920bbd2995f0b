# %% c1
limit = 20
a = 3
b = 5
# %% c2
labels = []
for n in range(1, limit + 1):
    if n % (a * b) == 0:
        labels.append('fizzbuzz')
    elif n % a == 0:
        labels.append('fizz')
    elif n % b == 0:
        labels.append('buzz')
    else:
        labels.append(str(n))
n_fizz = labels.count('fizz')
# ask: labels[14]
# ask: n_fizz
