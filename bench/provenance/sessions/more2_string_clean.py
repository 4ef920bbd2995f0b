# %% c1
raw = ['  Alice ', 'BOB', ' carol', '', 'dave  ']
# %% c2
clean = [r.strip().title() for r in raw if r.strip()]
initials = ''.join(name[0] for name in clean)
longest = max(clean, key=len)
# ask: clean[1]
# ask: initials
# ask: longest
