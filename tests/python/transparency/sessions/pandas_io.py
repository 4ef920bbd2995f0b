# Writing and reading CSV and JSON files in the working directory.
# %%
import io
import pandas as pd
df = pd.DataFrame({"id": [1, 2, 3], "name": ["a", "b", None], "score": [0.5, 1.25, 2.0]})
df.to_csv("scores.csv", index=False)
print(open("scores.csv").read())
# %%
back = pd.read_csv("scores.csv")
back, back.equals(df), back.isna().sum().to_dict()
# %%
text = "x;y\n1;2\n3;4\n"
pd.read_csv(io.StringIO(text), sep=";")
# %%
df.to_json(orient="records")
# %%
pd.read_json(io.StringIO(df.to_json(orient="records")), orient="records").shape
# %%
pd.read_csv("no_such_file.csv")
