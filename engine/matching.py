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
from itertools import combinations, product

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


# --- more than two copies of a card (Finding Friends, F2) ----------------------------------
#
# With three or four decks a lead can hold triples and quadruples. A lead unit is then a
# *shape* (width, length): `length` consecutive tuples of `width` identical cards. A choice
# of cards answers it fully with a tuple or tractor of that shape (component `(width + 1,)`),
# or else partly with groups of identical cards, at most `width` each and at most the unit's
# cards in all: the component is the group sizes (2 or more), largest first, so a pair and a
# single (`(2,)`) beat three singles (`()`) against a triple. Vectors compare unit by unit,
# largest unit first, as in R8. Cards are held as (order, code, copies), sorted.

Shape = tuple[int, int]
"""A lead unit's (width, length): (3, 1) a triple, (3, 2) a tractor of two triples."""
Holding = tuple[tuple[int, int, int], ...]
"""Cards of one effective suit as (order, code, copies), sorted by order then code."""
Taken = tuple[tuple[int, int], ...]
"""Cards taken for one unit: (code, copies) pairs."""
Component = tuple[int, ...]


def holding(cards: Iterable[Card], trump: Trump) -> Holding:
    """`cards` (one effective suit) as (order, code, copies), weakest first."""
    copies: dict[int, int] = {}
    for card in cards:
        copies[card.code] = copies.get(card.code, 0) + 1
    strengths = trump.strengths
    return tuple(sorted((strengths[code], code, count) for code, count in copies.items()))


def tuple_counts(cards: Iterable[Card], trump: Trump, width: int) -> Counts:
    """Number of tuples of `width` identical cards at each strength among `cards` (one
    effective suit): a card held four times makes two pairs, one triple or one quadruple."""
    if width == 2:
        return pair_counts(cards, trump)
    counts = [0] * ORDERS
    for order, _, copies in holding(cards, trump):
        counts[order] += copies // width
    return tuple(counts)


def strongest_unit(counts: Counts, length: int) -> int | None:
    """Top strength of the strongest tuple (`length` 1) or tractor of `length` tuples in
    `counts` (tuples of one width per strength), if any."""
    if length == 1:
        return max((order for order, count in enumerate(counts) if count), default=None)
    return strongest_tractor(counts, length)


def wide_shapes(shapes: Iterable[Shape]) -> tuple[Shape, ...]:
    """Lead unit shapes without the singles, largest first (most cards, then widest)."""
    return tuple(sorted((s for s in shapes if s[0] > 1), key=lambda s: (s[0] * s[1], s[0]),
                        reverse=True))


def full_wide_answer(shapes: Sequence[Shape]) -> tuple[Component, ...]:
    """The vector of a perfect answer to `shapes`: every unit by its own shape."""
    return tuple((width + 1,) for width, _ in shapes)


def wide_answer(shapes: tuple[Shape, ...], cards: Iterable[Card], trump: Trump
                ) -> tuple[Component, ...]:
    """The best answer vector `cards` (one effective suit) can give lead units `shapes`."""
    return wide_best(shapes, holding(cards, trump), True)[0]


@lru_cache(maxsize=1 << 14)
def wide_best(shapes: tuple[Shape, ...], held: Holding, prefer_high: bool
              ) -> tuple[tuple[Component, ...], tuple[Taken, ...]]:
    """The best answer vector to `shapes` from `held`, and the cards taken for each unit;
    among equally good answers the strongest cards (`prefer_high`) or the weakest."""
    if not shapes:
        return (), ()
    (width, length), rest = shapes[0], shapes[1:]
    options = full_options(width, length, held, prefer_high)
    component: Component = (width + 1,)
    if not options:
        component, options = _partial_options(width, length, held, prefer_high, bool(rest))
    best: tuple[tuple[Component, ...], tuple[Taken, ...]] | None = None
    for taken in options:
        tail, path = wide_best(rest, remove(held, taken), prefer_high)
        if best is None or (component, *tail) > best[0]:
            best = ((component, *tail), (taken, *path))
        if not rest:
            break
    assert best is not None
    return best


def remove(held: Holding, taken: Taken) -> Holding:
    """`held` without the `taken` copies."""
    out = dict(taken)
    return tuple((order, code, copies - out.get(code, 0)) for order, code, copies in held
                 if copies > out.get(code, 0))


def full_options(width: int, length: int, held: Holding, high: bool = True) -> list[Taken]:
    """Every way to take a tuple (`length` 1) or a tractor of `length` tuples of `width`
    from `held`, strongest first (`high`) or weakest first."""
    at: dict[int, list[int]] = {}
    for order, code, copies in held:
        if copies >= width:
            at.setdefault(order, []).append(code)
    tops = sorted(at, reverse=high)
    options: list[Taken] = []
    for top in tops:
        window = range(top, top - length, -1)
        if all(order in at for order in window):
            for choice in product(*(at[order][::-1] if high else at[order]
                                    for order in window)):
                options.append(tuple((code, width) for code in choice))
    return options


def _partial_options(width: int, length: int, held: Holding, high: bool, all_ways: bool
                     ) -> tuple[Component, list[Taken]]:
    """The best partial answer (groups of at most `width` identical cards, `width × length`
    cards at most) and the ways to take it (just one unless `all_ways`)."""
    copies = tuple(sorted((c for _, _, c in held if c >= 2), reverse=True))
    parts = _max_parts(copies, width * length, width)
    if not parts:
        return (), [()]
    codes = [(code, c) for _, code, c in (reversed(held) if high else held) if c >= 2]
    found: dict[Taken, None] = {}

    def assign(index: int, start: int, left: dict[int, int], taken: list[tuple[int, int]]
               ) -> None:
        if index == len(parts):
            merged: dict[int, int] = {}
            for code, count in taken:
                merged[code] = merged.get(code, 0) + count
            found.setdefault(tuple(sorted(merged.items())), None)
            return
        part = parts[index]
        first = start if index and parts[index - 1] == part else 0
        for i in range(first, len(codes)):
            code = codes[i][0]
            if left[code] >= part:
                left[code] -= part
                taken.append((code, part))
                assign(index + 1, i, left, taken)
                taken.pop()
                left[code] += part
                if found and not all_ways:
                    return

    assign(0, 0, {code: c for code, c in codes}, [])
    return parts, list(found)


@lru_cache(maxsize=1 << 12)
def _max_parts(copies: tuple[int, ...], cap: int, most: int) -> Component:
    """The lexicographically largest group sizes (each 2..`most`, `cap` cards in all at
    most) that cards held `copies` times each can give."""
    if not copies:
        return ()
    part = min(most, cap, copies[0])
    if part < 2:
        return ()
    best: Component = ()
    for index, count in enumerate(copies):
        if count < part or (index and copies[index - 1] == count):
            continue
        left = list(copies)
        left[index] -= part
        rest = tuple(sorted((c for c in left if c >= 2), reverse=True))
        candidate = (part, *_max_parts(rest, cap - part, part))
        best = max(best, candidate)
    return best
