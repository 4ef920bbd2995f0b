# pdb driven by a script of commands (no terminal): stepping, printing and
# continuing inside functions defined in cells.
# %%
import io
import pdb
def compute(n):
    a = n + 1
    b = a * 2
    c = [b, a]
    return sum(c)
def run_pdb(commands, func, *args):
    out = io.StringIO()
    debugger = pdb.Pdb(stdin=io.StringIO(commands), stdout=out, nosigint=True, readrc=False)
    debugger.use_rawinput = False
    result = debugger.runcall(func, *args)
    return result, out.getvalue()
result, transcript = run_pdb("n\nn\np a, b\nc\n", compute, 3)
print(result)
print(transcript)
# %%
import sys
sys.gettrace() is None
# %%
def gen_values():
    for i in range(3):
        yield i * 10
result, transcript = run_pdb("n\np i\nc\n", lambda: list(gen_values()))
print(result)
print(transcript.replace("<lambda>", "LAMBDA"))
