# %% c1
import pandas as pd
import numpy as np
loans = pd.DataFrame({
    'member': ['ana', 'ben', 'ana', 'chloe', 'dev', 'ben', 'chloe', 'ana'],
    'genre': ['sci-fi', 'history', 'poetry', 'sci-fi', 'history', 'sci-fi', 'poetry', 'history'],
    'days_out': [12, 30, 5, 21, 40, 9, 14, 28],
    'pages': [320, 610, 90, 450, 720, 280, 120, 510],
})
loan_period = 21
# %% c2
loans['late'] = np.where(loans['days_out'] > loan_period, 'yes', 'no')
long_or_late = loans[(loans['pages'] > 500) | (loans['days_out'] > loan_period)]
scifi_short = loans[(loans['genre'] == 'sci-fi') & (loans['days_out'] <= 14)]
# %% c3
mean_days = loans.groupby('genre')['days_out'].mean()
per_member = loans.groupby('member').size()
history_mean = mean_days['history']
n_long_or_late = len(long_or_late)
# ask: history_mean
# ask: n_long_or_late
