# A figure drawn with the Agg backend, saved to a file and displayed.
# %%
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(3, 2))
ax.plot([1, 2, 3], [3, 1, 2], label="line");
ax.set_title("demo");
# %%
ax.get_title(), [l.get_label() for l in ax.get_lines()], ax.get_xlim()
# %%
fig.savefig("demo.png")
import os
os.path.exists("demo.png")
# %%
display(fig)
# %%
plt.close(fig)
len(plt.get_fignums())
