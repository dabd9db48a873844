"""Players' names on the seat plates, fitted by measuring them with the font drawn (issue 31
item 7: "5. Com…" on a phone told nobody who sat there).

A plate shows a name in the first of these forms that fits, measured in the plate's font:

1. the whole name on one line;
2. an agreed shorter form on one line (`SeatLabel.forms`: a computer's name without its
   level, "Bot 3" for "Bot 3 · strong": the one name the texts use too, issue 38);
3. the whole name on two lines (where the plate has room for a second line), broken after a
   space, hyphen or underscore when one is near the line's end, else between characters
   (Chinese, or one long word);
4. a shorter form on two lines;
5. only then a cut, ending in "…": the shortest form when there is one, else the name over its
   two lines — a Discord name (at most 32 characters) keeps well over its first 12.

Initials were considered and left out: nobody recognises "A-O" or "李" at a glance without a
legend, and a legend costs the room the names needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.render.draw import fit, width_of
from bot.render.fonts import drawable

BREAK_AFTER = "-_/.·"
"""A line may end after these (or before a space, which is dropped)."""


@dataclass(frozen=True, slots=True)
class NameFit:
    """The lines a plate draws for a seat's name."""

    lines: tuple[str, ...]
    """As drawn: the first starts with the prefix ("3. ")."""
    shown: str
    """The name shown: the whole name, one of its forms, or a cut one ending in "…"."""

    @property
    def cut(self) -> bool:
        return self.shown.endswith("…")


@lru_cache(maxsize=4096)
def fit_name(prefix: str, name: str, forms: tuple[str, ...], size: int, one: float,
             two: tuple[float, float] | None = None, *, bold: bool = True) -> NameFit:
    """`name` (or one of its shorter `forms`, best first) after `prefix` in the plate's
    font: on one line `one` px wide, else (`two`: the widths of a first and a second line)
    on two lines; see the module's order."""
    name = drawable(name)
    candidates = (name, *(drawable(f) for f in forms if f and f != name))

    def width(value: str) -> float:
        return width_of(value, size, bold=bold)

    for form in candidates:
        if width(prefix + form) <= one:
            return NameFit((prefix + form,), form)
    if two is not None:
        for form in candidates:
            lines = _two_lines(prefix, form, size, two, bold, cut=False)
            if lines is not None:
                return NameFit(lines[:2], form)
    if len(candidates) > 1:  # a short form exists: never the name cut
        line = fit(prefix + candidates[-1], size, one, bold=bold)
        return NameFit((line,), line[len(prefix):])
    if two is not None:
        lines = _two_lines(prefix, name, size, two, bold, cut=True)
        if lines is not None:
            return NameFit(lines[:2], lines[2])
    line = fit(prefix + name, size, one, bold=bold)
    return NameFit((line,), line[len(prefix):])


def _two_lines(prefix: str, value: str, size: int, rooms: tuple[float, float], bold: bool, *,
               cut: bool) -> tuple[str, str, str] | None:
    """`prefix + value` broken over two lines `rooms` wide, and the name they show; `None`
    when the second line does not hold the rest (`cut`: the rest is cut
    with "…" instead)."""
    first_room, second_room = rooms
    count = min(_fitting(prefix, value, size, first_room, bold), len(value) - 1)
    if count <= 0:  # the second line holds something (the first may be the wider)
        return None
    at, joint = count, ""
    for i in range(count, max(count * 3 // 5, 1) - 1, -1):  # a natural break near the end
        if value[i] == " " or value[i - 1] in BREAK_AFTER:
            at, joint = i, " " if value[i] == " " else ""
            break
    first, rest = value[:at].rstrip(), value[at:].lstrip()
    if width_of(rest, size, bold=bold) > second_room:
        if not cut:
            return None
        rest = fit(rest, size, second_room, bold=bold)
    return prefix + first, rest, first + joint + rest


def _fitting(prefix: str, value: str, size: int, room: float, bold: bool) -> int:
    """How many of `value`'s first characters fit after `prefix` in `room` px."""
    low, high = 0, len(value)
    while low < high:  # widths grow with the characters taken
        mid = (low + high + 1) // 2
        if width_of(prefix + value[:mid], size, bold=bold) <= room:
            low = mid
        else:
            high = mid - 1
    return low
