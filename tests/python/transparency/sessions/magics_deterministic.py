# Everyday deterministic magics: %who, %whos, %precision, %env, %xdel, !cmd.
# %%
alpha = 1
beta = [1, 2]
gamma = "text"
%who
# %%
%who_ls
# %%
%whos
# %%
%precision 3
3.14159265
# %%
%precision
2 / 3
# %%
%env NBSIGHT_TRANSPARENCY_DEMO=yes
%env NBSIGHT_TRANSPARENCY_DEMO
# %%
listing = !echo hello; echo world
listing
# %%
!echo straight to the terminal
# %%
%xdel gamma
%who
# %%
%reset_selective -f beta
%who
# %%
beta?
# %%
alpha?
