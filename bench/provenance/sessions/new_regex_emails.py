# %% c1
import re
notes = "Contact alice@example.com or bob@test.org; cc carol@example.com"
domain = 'example.com'
# %% c2
emails = re.findall(r'[\w.]+@[\w.]+', notes)
ours = [e for e in emails if e.endswith('@' + domain)]
users = sorted(e.split('@')[0] for e in ours)
n_emails = len(emails)
# ask: users
# ask: n_emails
