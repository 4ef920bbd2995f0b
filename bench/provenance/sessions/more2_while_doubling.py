# %% c1
population = 1000
growth = 0.25
limit = 5000
# %% c2
years = 0
while population < limit:
    population = population * (1 + growth)
    years += 1
final_pop = round(population)
# ask: years
# ask: final_pop
