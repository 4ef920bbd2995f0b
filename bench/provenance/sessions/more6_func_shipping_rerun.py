# %% c1
def shipping_cost(weight_kg, zone='domestic', express=False, free_over=None, order_total=0):
    base = {'domestic': 4.0, 'eu': 9.5, 'world': 18.0}[zone]
    cost = base + 1.2 * max(0, weight_kg - 1)
    if express:
        cost *= 1.5
    if free_over is not None and order_total >= free_over:
        cost = 0.0
    return round(cost, 2)
# %% c2
parcel_a = shipping_cost(2.5)
parcel_b = shipping_cost(0.8, zone='eu', express=True)
# %% c1
def shipping_cost(weight_kg, zone='domestic', express=False, free_over=50, order_total=0):
    base = {'domestic': 4.5, 'eu': 9.5, 'world': 18.0}[zone]
    cost = base + 1.4 * max(0, weight_kg - 1)
    if express:
        cost *= 1.5
    if free_over is not None and order_total >= free_over:
        cost = 0.0
    return round(cost, 2)
# %% c2
parcel_a = shipping_cost(2.5)
parcel_b = shipping_cost(0.8, zone='eu', express=True)
parcel_c = shipping_cost(6.0, zone='world', order_total=64.0)
# ask: parcel_a
# ask: parcel_b
