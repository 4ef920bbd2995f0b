# %% c1
import statistics
latencies = [120, 95, 130, 400, 110, 105]
cutoff = 300
# %% c2
clean = [x for x in latencies if x < cutoff]
avg = statistics.mean(clean)
med = statistics.median(latencies)
spread = round(statistics.stdev(clean), 2)
# ask: avg
# ask: med
# ask: spread
