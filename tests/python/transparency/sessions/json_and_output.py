# json dumps/loads, pretty printing, and large outputs.
# %%
import json
record = {"name": "x", "values": [1, 2.5, None, True], "nested": {"k": "v"}}
text = json.dumps(record, indent=2, sort_keys=True)
print(text)
# %%
json.loads(text) == record, json.dumps("é"), json.dumps("é", ensure_ascii=False)
# %%
from pprint import pprint
pprint({"k" + str(i): list(range(i)) for i in range(8)}, width=60)
# %%
for i in range(300):
    print(i, "x" * (i % 20))
# %%
list(range(200))
# %%
json.loads("{bad json}")
