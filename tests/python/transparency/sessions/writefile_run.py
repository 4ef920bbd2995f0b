# %%writefile then %run of the written script, in the working directory.
# %%
%%writefile helper_script.py
import sys
def triple(x):
    return 3 * x
print("script ran with", sys.argv[1:])
RESULT = triple(5)
# %%
%run helper_script.py a b
# %%
triple(7), RESULT
# %%
with open("helper_script.py") as fh:
    print(len(fh.read().splitlines()))
# %%
%run -i helper_script.py
# %%
%%writefile -a helper_script.py
print("appended line")
# %%
%run helper_script.py
# %%
%run missing_script.py
