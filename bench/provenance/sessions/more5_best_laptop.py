# %% c1
laptops = [
    {'model': 'Aero 14', 'price': 1199, 'battery_h': 11, 'weight_kg': 1.4},
    {'model': 'Zen 13', 'price': 899, 'battery_h': 9, 'weight_kg': 1.2},
    {'model': 'Titan 16', 'price': 1899, 'battery_h': 6, 'weight_kg': 2.5},
    {'model': 'Note 15', 'price': 749, 'battery_h': 7, 'weight_kg': 1.8},
]
budget = 1200
# %% c2
def score(l):
    return l['battery_h'] * 10 - l['weight_kg'] * 15
affordable = [l for l in laptops if l['price'] <= budget]
best = max(affordable, key=score)['model']
cheapest = sorted(laptops, key=lambda l: l['price'])[0]['model']
scores = [round(score(l), 1) for l in laptops]
best_overall_idx = scores.index(max(scores))
# ask: best
# ask: best_overall_idx
