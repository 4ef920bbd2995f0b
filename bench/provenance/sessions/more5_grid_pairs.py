# %% c1
sizes = ['S', 'M', 'L']
colors = ['red', 'navy', 'olive']
stock = {'S': 4, 'M': 0, 'L': 7}
sold_out_colors = ['olive']
# %% c2
variants = [f'{c}-{s}' for c in colors for s in sizes
            if stock[s] > 0 and c not in sold_out_colors]
price = {s: 15 + 2 * i for i, s in enumerate(sizes)}
# %% c3
available_value = sum(price[v.split('-')[1]] * stock[v.split('-')[1]] for v in variants)
# ask: variants
# ask: price['L']
