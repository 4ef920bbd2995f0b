# %% c1
raw_names = ['  Ana ', 'BO', 'cy  ', '']
sep = ', '
# %% c2
clean = [n.strip().title() for n in raw_names if n.strip()]
joined = sep.join(clean)
# ask: joined
