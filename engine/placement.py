"""Placements of a ruff on a throw's units, for the `every_unit` ruff rule (R9, R12
`throw_ruff`; with triples and quadruples, F2).

A *placement* of a play on a lead splits the play's cards into one unit per lead unit, of
the same shape: a tractor of n pairs for each tractor of n pairs, a pair for each pair, a
single card for each single. It is written as a *profile*: the strengths (R3) of the units
placed on each shape, lead shapes largest first, each group strongest first, singles last.
Units of one shape are interchangeable (any trump beats any side-suit card), so a later
ruff beats a placement when, shape by shape, its i-th strongest unit is stronger than the
placement's i-th strongest.

Every-unit rule: a later ruff beats the winning ruff when it has a placement that beats
*every* placement of the winning ruff (doubt favours the earlier play, as in R3). That is
the same as beating, position by position, the winning ruff's *defence*: the strongest
unit any of its placements can put at each position.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import Card
from engine.matching import (
    ORDERS,
    Counts,
    Holding,
    Shape,
    full_options,
    holding,
    pair_counts,
    remove,
    wide_shapes,
)
from engine.trump import Trump

Profile = tuple[int, ...]


def profiles(shapes: tuple[int, ...], play: Sequence[Card], trump: Trump) -> frozenset[Profile]:
    """Every profile of a placement of `play` (one effective suit) on lead units of
    `shapes` pairs (largest first, 0 for a single). Empty when there is none."""
    strengths = trump.strengths
    cards = tuple(sorted((strengths[card.code] for card in play), reverse=True))
    return _profiles(shapes, pair_counts(play, trump), cards)


def defence(placements: frozenset[Profile]) -> Profile:
    """The strongest unit any placement puts at each position."""
    return tuple(max(column) for column in zip(*placements, strict=True))


def beats(placements: frozenset[Profile], defended: Profile) -> bool:
    """Whether one of `placements` is stronger at every position than `defended`."""
    return any(all(mine > theirs for mine, theirs in zip(placement, defended, strict=True))
               for placement in placements)


@lru_cache(maxsize=1 << 12)
def _profiles(shapes: tuple[int, ...], counts: Counts, cards: tuple[int, ...]
              ) -> frozenset[Profile]:
    paired = tuple(n for n in shapes if n > 0)
    found: set[Profile] = set()
    for tops in _place(paired, counts, ORDERS):
        left = list(cards)
        for n, top in zip(paired, tops, strict=True):
            for order in range(top - max(n, 1) + 1, top + 1):
                left.remove(order)
                left.remove(order)
        grouped = _grouped(paired, tops)
        found.add((*grouped, *left))  # `left` is sorted strongest first already
    return frozenset(found)


def _grouped(shapes: Sequence[object], tops: Sequence[int]) -> list[int]:
    """`tops` (one per unit of `shapes`) with each run of equal shapes strongest first."""
    grouped: list[int] = []
    start = 0
    while start < len(shapes):
        end = start
        while end < len(shapes) and shapes[end] == shapes[start]:
            end += 1
        grouped += sorted(tops[start:end], reverse=True)
        start = end
    return grouped


def _place(shapes: tuple[int, ...], counts: Counts, below: int) -> list[tuple[int, ...]]:
    """Tops of the units placed on `shapes` (pairs per unit) from the pairs in `counts`;
    a unit of the same shape as the one before it takes a top no higher than `below`."""
    if not shapes:
        return [()]
    n, rest = shapes[0], shapes[1:]
    same_next = bool(rest) and rest[0] == n
    out: list[tuple[int, ...]] = []
    for top in range(min(below, ORDERS - 1), n - 2, -1):
        window = range(top - n + 1, top + 1) if n >= 2 else range(top, top + 1)
        if all(counts[order] > 0 for order in window):
            left = list(counts)
            for order in window:
                left[order] -= 1
            out += [(top, *tail) for tail in _place(rest, tuple(left),
                                                    top if same_next else ORDERS)]
    return out


def wide_profiles(shapes: Sequence[Shape], play: Sequence[Card], trump: Trump
                  ) -> frozenset[Profile]:
    """`profiles` for a lead with triples or quadruples (F2): `shapes` are its units'
    (width, length), singles (1, 1) included, in the lead's order (largest first). A unit
    of width w and length l takes a tuple or tractor of exactly that shape; the cards left
    over answer the singles. Profiles group the units by shape, largest shape first."""
    paired = wide_shapes(shapes)
    return _wide_profiles(paired, holding(play, trump))


@lru_cache(maxsize=1 << 10)
def _wide_profiles(paired: tuple[Shape, ...], held: Holding) -> frozenset[Profile]:
    found: set[Profile] = set()
    for tops, left in _wide_place(paired, held):
        grouped = _grouped(paired, tops)
        singles = sorted((order for order, _, copies in left for _ in range(copies)),
                         reverse=True)
        found.add((*grouped, *singles))
    return frozenset(found)


def _wide_place(paired: tuple[Shape, ...], held: Holding
                ) -> list[tuple[tuple[int, ...], Holding]]:
    """Every placement of units of `paired` shapes on `held`: their tops and the cards left."""
    if not paired:
        return [((), held)]
    (width, length), rest = paired[0], paired[1:]
    order_of = {code: order for order, code, _ in held}
    out: list[tuple[tuple[int, ...], Holding]] = []
    for taken in full_options(width, length, held):
        top = order_of[taken[0][0]]
        out += [((top, *tops), left) for tops, left in _wide_place(rest, remove(held, taken))]
    return out
