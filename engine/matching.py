"""How well a set of cards answers the units of a lead (R8 obligations, R9 ruffs).

Cards of one effective suit are reduced to their *pairs by order* (R3 strength); a lead's
units to their *shapes* (pairs per unit, largest first; singles impose nothing). The answer
vector scores, unit by unit in that order, how a choice of cards meets each obligation:
`2n + 1` for a tractor of n pairs answered by a tractor, `2k` for k pairs, so comparing
vectors lexicographically is R8's "largest unit's obligation first".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from engine.cards import Card
from engine.trump import Trump

ORDERS = 16  # strengths run 0..15 in every effective suit (R3)
Counts = tuple[int, ...]


def pair_counts(cards: Iterable[Card], trump: Trump) -> Counts:
    """Number of pairs at each strength among `cards` (one effective suit)."""
    counts = [0] * ORDERS
    strengths = trump.strengths
    seen: set[int] = set()
    for card in cards:
        code = card.code
        if code in seen:
            counts[strengths[code]] += 1
            seen.discard(code)
        else:
            seen.add(code)
    return tuple(counts)


def runs(counts: Counts) -> list[tuple[int, int]]:
    """Maximal runs of consecutive strengths holding a pair, as (lowest, highest)."""
    found = []
    start = None
    for order in range(ORDERS + 1):
        present = order < ORDERS and counts[order] > 0
        if present and start is None:
            start = order
        elif not present and start is not None:
            found.append((start, order - 1))
            start = None
    return found


def strongest_tractor(counts: Counts, pairs: int) -> int | None:
    """Top strength of the strongest tractor of exactly `pairs` pairs in `counts`, if any."""
    tops = [high for low, high in runs(counts) if high - low + 1 >= pairs]
    return max(tops) if tops else None


def shapes_of(pair_sizes: Iterable[int]) -> tuple[int, ...]:
    """Lead unit shapes (pairs per unit), largest first, singles dropped."""
    return tuple(sorted((n for n in pair_sizes if n > 0), reverse=True))


def full_answer(shapes: Sequence[int]) -> tuple[int, ...]:
    """The vector of a perfect answer: every tractor by a tractor, every pair by a pair."""
    return tuple(2 * n + 1 if n >= 2 else 2 for n in shapes)


def best_answer(shapes: tuple[int, ...], counts: Counts) -> tuple[int, ...]:
    """The lexicographically best answer vector the pairs in `counts` can give `shapes`."""
    return _best(shapes, counts, True)[0]


def best_answer_path(
    shapes: tuple[int, ...], counts: Counts, prefer_high: bool
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The best vector and, per shape, the strengths of the pairs used to reach it.

    Among equally good answers, prefers the highest pairs (`prefer_high`) or the lowest.
    """
    return _best(shapes, counts, prefer_high)


@lru_cache(maxsize=200_000)
def _best(
    shapes: tuple[int, ...], counts: Counts, prefer_high: bool
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    if not shapes:
        return (), ()
    total = sum(counts)
    if total == 0:
        return (0,) * len(shapes), ((),) * len(shapes)
    n, rest = shapes[0], shapes[1:]
    scan = range(ORDERS - 1, -1, -1) if prefer_high else range(ORDERS)
    options: list[tuple[int, tuple[int, ...]]] = []  # (component, strengths used)
    if n >= 2:
        for top in scan:
            window = range(top - n + 1, top + 1)
            if top - n + 1 >= 0 and all(counts[o] > 0 for o in window):
                options.append((2 * n + 1, tuple(window)[::-1]))
    if not options:
        take = min(n, total)
        held = [o for o in scan for _ in range(counts[o])]
        if not any(s >= 2 for s in rest):
            options.append((2 * take, tuple(held[:take])))  # later units are pairs: any will do
        else:
            options += [(2 * take, combo) for combo in dict.fromkeys(combinations(held, take))]
    best: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None = None
    for component, used in options:
        left = list(counts)
        for order in used:
            left[order] -= 1
        tail, path = _best(rest, tuple(left), prefer_high)
        candidate = ((component, *tail), (used, *path))
        if best is None or candidate[0] > best[0]:
            best = candidate
    assert best is not None
    return best
