# A result whose repr fails, and objects with only some reprs.
# %%
class BadRepr:
    def __repr__(self):
        raise RuntimeError("repr exploded")
BadRepr()
# %%
print("next")
class BadHtml:
    def _repr_html_(self):
        raise ValueError("html exploded")
    def __repr__(self):
        return "BadHtml()"
BadHtml()
# %%
class NoneRepr:
    def _repr_html_(self):
        return None
    def __repr__(self):
        return "NoneRepr()"
NoneRepr()
