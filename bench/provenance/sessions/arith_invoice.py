# %% c1
price = 19.99
quantity = 3
tax_rate = 0.08
shipping = 4.5
# %% c2
subtotal = price * quantity
tax = subtotal * tax_rate
total = round(subtotal + tax + shipping, 2)
# ask: total
# ask: tax
