# Regular expressions and text processing.
# %%
import re
text = "Order 66 shipped on 2024-05-01; order 7 on 2024-06-12."
re.findall(r"\d{4}-\d{2}-\d{2}", text)
# %%
m = re.search(r"[Oo]rder (?P<num>\d+)", text)
m.group("num"), m.span(), m.groupdict()
# %%
re.sub(r"(\d+)-(\d+)-(\d+)", r"\3/\2/\1", text)
# %%
pattern = re.compile(r"\border\b", re.IGNORECASE)
[x.start() for x in pattern.finditer(text)], pattern.pattern
# %%
re.split(r"[;,.]\s*", "a, b; c. d")
# %%
re.compile(r"(unclosed")
