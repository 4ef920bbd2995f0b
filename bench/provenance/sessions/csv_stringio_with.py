# %% c1
import io
header = 'name,score'
rows = [('ana', 90), ('bo', 72)]
# %% c2
with io.StringIO() as buf:
    buf.write(header + '\n')
    for name, score in rows:
        buf.write(f'{name},{score}\n')
    text = buf.getvalue()
n_lines = len(text.splitlines())
# ask: text
# ask: n_lines
