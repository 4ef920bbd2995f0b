# Non-ASCII identifiers and text, wide characters, emoji.
# %%
naïve = 3
変数 = naïve * 2
print(変数, "café ✓ naïve — ünïcödé")
# %%
text = "Grüße 👋 from Zürich 🇨🇭"
len(text), text.upper(), text.encode("utf-8")[:10]
# %%
import unicodedata
[unicodedata.name(c) for c in "é👋"]
# %%
"\u00e9" == "e\u0301", unicodedata.normalize("NFC", "e\u0301") == "\u00e9"
# %%
données = {"clé": "valeur"}; données["clé"]
# %%
raise ValueError("bad value: ümlaut ✗")
