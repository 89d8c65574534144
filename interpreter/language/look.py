"""The look a rule file gives its pictures: the colours `show colour(s)` may name.

In: a text a `show colour` rule gives (a colour word, `#rgb` or `#rrggbb`). Out: the colour
as `#rrggbb`, or None when the text names no colour. The checker reads this table to refuse a
written colour that is none; the pictures read it to paint seats, cells and badges.
"""

from __future__ import annotations

import re

# The colour words, each as the pictures paint it (chosen to read well under black or white
# text; a seat named after one of them is painted in it without any `show colour`).
NAMED: dict[str, str] = {
    "red": "#d1372f", "blue": "#2a64c5", "green": "#22904a", "yellow": "#e8b400",
    "orange": "#ee7b1a", "purple": "#8446c1", "black": "#2b2b2b", "white": "#f4f4f4",
    "pink": "#e0609a", "brown": "#8b5a2b", "cyan": "#17a2b8", "grey": "#7f7f7f",
    "gray": "#7f7f7f", "teal": "#1f8a84", "violet": "#a05ad6", "gold": "#c9a227",
    "silver": "#b8bcc2", "crimson": "#a8192e", "navy": "#23397a", "olive": "#7a7f2a",
}
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def colour_of(text: str) -> str | None:
    """`text` as `#rrggbb` (a colour word in any case, `#rgb` or `#rrggbb`), or None."""
    named = NAMED.get(text.strip().lower())
    if named is not None:
        return named
    if _HEX.fullmatch(text.strip()):
        digits = text.strip()[1:].lower()
        return "#" + ("".join(c + c for c in digits) if len(digits) == 3 else digits)
    return None


def colour_words() -> str:
    """The colour words, for a message: 'red, blue, ..., navy or olive'."""
    words = [w for w in NAMED if w != "gray"]
    return ", ".join(words[:-1]) + " or " + words[-1]
