# Results, display(), rich reprs, Out/_ history and a suppressed result.
# %%
from IPython.display import HTML, Markdown, display
display(1, [2, 3], {"a": 4})
# %%
display(Markdown("**bold**"))
display(HTML("<b>x</b>"))
# %%
class Rich:
    def _repr_html_(self):
        return "<i>rich</i>"
    def _repr_markdown_(self):
        return "*rich*"
    def __repr__(self):
        return "Rich()"
Rich()
# %%
40 + 2
# %%
_ * 2
# %%
sorted(Out.items())[-2:]
# %%
hidden = 10
hidden;
# %%
_, __
# %%
print("printed", end="")
"and returned"
# %%
import sys
sys.stdout.write("written\n")
# %%
display("a", display_id=False)
None
