# Strings, f-strings and formatting.
# %%
name = "Ada"
value = 3.14159
print(f"{name!r:>8}|{value:.2f}|{value=}|{name.upper()}")
# %%
text = "  The quick brown fox  "
text.strip().split(), text.count("o"), text.replace("quick", "slow")
# %%
"{:08.3f} {:x} {:>5} {:,}".format(value, 255, "r", 1234567)
# %%
"%s has %d items (%.1f%%)" % ("cart", 3, 42.5)
# %%
lines = "\n".join(f"{i:>3}: {'#' * i}" for i in range(1, 5))
print(lines)
# %%
"-".join(reversed("abc")), "abc"[::-1], "AbC".swapcase(), "x".center(5, "*")
