# with statements: files, contextlib helpers, redirect_stdout, suppress.
# %%
import contextlib
import io
import sys
with open("notes.txt", "w") as fh:
    fh.write("line one\nline two\n")
with open("notes.txt") as fh:
    lines = fh.readlines()
lines, fh.closed
# %%
@contextlib.contextmanager
def section(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    finally:
        print(f"</{name}>")
with section("body") as tag:
    print("inside", tag)
# %%
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    print("captured text")
    help(len)
buffer.getvalue().splitlines()[0], "len" in buffer.getvalue()
# %%
with contextlib.suppress(KeyError):
    {}["nope"]
print("suppressed")
# %%
print("to stderr", file=sys.stderr)
sys.stderr.write("raw stderr\n")
# %%
with section("failing"):
    raise ValueError("inside with")
# %%
with contextlib.ExitStack() as stack:
    names = [stack.enter_context(section(n)) for n in "ab"]
names
