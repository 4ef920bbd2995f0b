# warnings.warn from user code, filters, catch_warnings, warnings as errors.
# %%
import warnings
def old_api(x):
    warnings.warn("old_api is deprecated", FutureWarning, stacklevel=2)
    return x
old_api(1)
# %%
old_api(2)
# %%
warnings.warn("plain user warning")
# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old_api(3)
    warnings.warn("second", RuntimeWarning)
[(w.category.__name__, str(w.message), w.lineno) for w in caught]
# %%
warnings.simplefilter("error", FutureWarning)
old_api(4)
# %%
warnings.resetwarnings()
warnings.simplefilter("ignore")
old_api(5)
# %%
def deprecated_inner():
    warnings.warn("inner deprecated", DeprecationWarning, stacklevel=2)
warnings.resetwarnings()
deprecated_inner()
