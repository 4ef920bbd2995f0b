# %% c1
import pandas as pd
orders = pd.DataFrame({
    'drink': ['latte', 'espresso', 'flat white', 'latte', 'cold brew', 'espresso', 'latte', 'mocha'],
    'size': ['L', 'S', 'M', 'M', 'L', 'S', 'S', 'L'],
    'price': [4.2, 2.5, 3.8, 3.9, 4.5, 2.5, 3.4, 4.8],
    'refunded': [False, False, True, False, False, False, False, True],
})
milk_drinks = ['latte', 'flat white', 'mocha']
# %% c2
kept = orders[~orders['refunded']]
milky = kept[kept['drink'].isin(milk_drinks)]
milk_revenue = round(milky['price'].sum(), 2)
# %% c3
per_drink = kept.groupby('drink')['price'].agg(['count', 'sum'])
top_drink = per_drink['sum'].idxmax()
latte_count = int(per_drink.loc['latte', 'count'])
# ask: milk_revenue
# ask: top_drink
