"""The look a rule file gives its pictures: the colours `show colour(s)` may name.

In: a text a `show colour` rule gives (a colour word, `#rgb` or `#rrggbb`). Out: the colour
as `#rrggbb`, or None when the text names no colour. The checker reads this table to refuse a
written colour that is none; the pictures and the terminal read it to paint seats, cells and
badges (`seat_colours`: every seat's colour in a view).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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


# A seat is drawn in its `show colour`; else a seat named after a colour in that colour; the
# others take the palette in order.
PALETTE = ("#2a64c5", "#d1372f", "#22904a", "#ee7b1a", "#8446c1", "#17a2b8", "#e0609a",
           "#8b5a2b")


def seat_colours(seats: Sequence[str], view: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Seat name -> colour, the seats in order: the colour the view's `show colour` gives a
    seat, else a seat named after a colour is drawn in it, the others in the palette."""
    colours: dict[str, str] = {}
    shown: Iterable[Mapping[str, Any]] = (view or {}).get("seats", ())
    for seat in shown:
        chosen = colour_of(seat.get("colour", ""))
        if chosen is not None:
            colours[seat["name"]] = chosen
    for name in seats:
        named = NAMED.get(name.lower())
        if name not in colours and named is not None and named not in colours.values():
            colours[name] = named
    for name in seats:
        if name not in colours:
            colours[name] = next((c for c in PALETTE if c not in colours.values()),
                                 PALETTE[len(colours) % len(PALETTE)])
    return colours


def rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as its three numbers."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def ink(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = rgb(colour)
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def tint(colour: str, ground: str, opacity: float) -> str:
    """`colour` laid with `opacity` over `ground`, as `#rrggbb`."""
    mixed = (round(opacity * c + (1 - opacity) * g) for c, g in zip(rgb(colour), rgb(ground)))
    return "#" + "".join(f"{c:02x}" for c in mixed)
