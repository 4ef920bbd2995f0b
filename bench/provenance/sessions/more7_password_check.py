# %% c1
POLICY = 'strict'
min_len = 10
banned = ['password', 'letmein', 'qwerty']
candidates = ['sunshine22', 'Qwerty!2024x', 'Tr1cky-Horse', 'abc', 'CorrectHorse9']
# %% c2
def problem(pw):
    if len(pw) < min_len:
        return 'too short'
    low = pw.lower()
    for word in banned:
        if word in low:
            return 'contains ' + word
    if POLICY == 'strict':
        if not any(c.isdigit() for c in pw):
            return 'no digit'
        if pw.isalnum():
            return 'no symbol'
    return None
# %% c3
report = {pw: problem(pw) for pw in candidates}
accepted = [pw for pw, why in report.items() if why is None]
first_accepted = accepted[0] if accepted else None
# ask: first_accepted
# ask: report['CorrectHorse9']
