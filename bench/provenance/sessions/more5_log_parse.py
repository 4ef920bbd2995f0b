# %% c1
log = """2024-05-01 10:02:11 INFO  user=alice action=login
2024-05-01 10:05:43 ERROR user=bob action=upload size=2048
2024-05-01 10:07:00 warn  user=alice action=upload size=512
2024-05-01 10:09:15 ERROR user=carol action=login
"""
level_wanted = 'error'
# %% c2
rows = []
for line in log.strip().splitlines():
    date, time, level, *rest = line.split()
    fields = dict(kv.split('=') for kv in rest)
    rows.append({'time': time, 'level': level.lower(), **fields})
# %% c3
hits = [r['user'] for r in rows if r['level'] == level_wanted]
summary = f"{len(hits)} {level_wanted} lines: {', '.join(hits)}"
uploaded = sum(int(r.get('size', 0)) for r in rows)
# ask: summary
# ask: uploaded
