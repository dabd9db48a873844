"""Combinations (R4; F2 with more decks): singles, pairs, triples, quadruples and tractors of
tuples, and the one structure of a play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter

from engine.cards import ALL_CARDS, Card
from engine.trump import EffectiveSuit, Trump


class UnitKind(StrEnum):
    """The shape of a unit of a play."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    QUAD = "quad"
    TRACTOR = "tractor"


_TUPLE_KINDS = {1: UnitKind.SINGLE, 2: UnitKind.PAIR, 3: UnitKind.TRIPLE, 4: UnitKind.QUAD}
_TUPLE_NAMES = {2: "pairs", 3: "triples", 4: "quadruples"}


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a play: a tuple of `width` identical cards (a single, pair, triple or
    quadruple), or a tractor of `length` ≥ 2 consecutive tuples of one width ≥ 2 (R4, F2).

    `top` is the strength (R3 order) of its highest card or tuple; `cards` run from the
    strongest down.
    """

    kind: UnitKind
    cards: tuple[Card, ...]
    suit: EffectiveSuit
    top: int
    width: int = 1
    """Cards per tuple: 1 single, 2 pair, 3 triple, 4 quadruple (F2)."""
    length: int = 1
    """Tuples in the unit: 1, or ≥ 2 for a tractor."""
    rank: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    """(cards, width, top): units sort largest first by it (F2)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rank", (len(self.cards), self.width, self.top))

    @property
    def pairs(self) -> int:
        """Number of pairs (0 for a single) of a unit of width ≤ 2; for wider units, half its
        cards rounded down (the R8 machinery of two decks never sees those)."""
        return len(self.cards) // 2

    @property
    def size(self) -> int:
        return len(self.cards)

    def describe(self) -> str:
        """`"pair"`, `"tractor of 3 pairs"`, `"tractor of 2 triples"` …, for messages."""
        if self.kind is UnitKind.TRACTOR:
            return f"tractor of {self.length} {_TUPLE_NAMES[self.width]}"
        return self.kind.value


def group_by_suit(cards: Iterable[Card], trump: Trump) -> list[list[Card]]:
    """Cards split into five lists by effective suit index (S, H, D, C, trumps)."""
    groups: list[list[Card]] = [[], [], [], [], []]
    suits = trump.suit_indexes
    for card in cards:
        groups[suits[card.code]].append(card)
    return groups


def longest_run(orders: Sequence[int]) -> tuple[int, int]:
    """(length, top order) of the longest run of consecutive distinct orders; ties → highest.

    `orders` may repeat (equal off-suit level pairs); a repeated order counts once.
    """
    best = (0, -1)
    distinct = sorted(set(orders))
    start = 0
    for i in range(1, len(distinct) + 1):
        if i == len(distinct) or distinct[i] != distinct[i - 1] + 1:
            length = i - start
            if length >= best[0]:
                best = (length, distinct[i - 1])
            start = i
    return best


def decompose_suit(cards: Sequence[Card], trump: Trump) -> list[Unit]:
    """The units of cards that share one effective suit: longest tractors first (R4)."""
    if not cards:
        return []
    return list(_decompose_codes(tuple(sorted(card.code for card in cards)), trump)[0])


def decompose_lead(cards: Sequence[Card], trump: Trump) -> tuple[list[Unit], bool]:
    """`decompose_suit(cards, trump)`, and whether a unit is a triple, a quadruple or a
    tractor of them (F2): the lead's duties then need the wider machinery."""
    if not cards:
        return [], False
    units, wide = _decompose_codes(tuple(sorted(card.code for card in cards)), trump)
    return list(units), wide


def unit_cards(cards: Sequence[Card], trump: Trump) -> list[tuple[Card, ...]]:
    """The cards of each unit of `decompose_suit(cards, trump)`, in the same order, without
    building `Unit`s or caching: for one-off decompositions, like a random lead from a
    hand's suit (which seldom repeats)."""
    if not cards:
        return []
    return [unit[1] for unit in _split(sorted(card.code for card in cards), trump)]


@lru_cache(maxsize=1 << 12)
def _decompose_codes(codes: tuple[int, ...], trump: Trump) -> tuple[tuple[Unit, ...], bool]:
    """`decompose_suit` keyed by sorted card codes: a lead is decomposed many times a trick.

    The cache stays small: its units are objects the garbage collector walks through, and
    the reuse that matters (one lead, several checks) is recent.
    """
    suit = trump.effective_suit(ALL_CARDS[codes[0]])
    units = tuple([Unit(kind, cards, suit, top, width, length)
                   for kind, cards, top, width, length in _split(codes, trump)])
    return units, any(unit.width > 2 for unit in units)


Split = tuple[UnitKind, tuple[Card, ...], int, int, int]
"""A unit as plain data: (kind, cards, top, width, length)."""


def _split(codes: Sequence[int], trump: Trump) -> list[Split]:
    """The units of sorted card `codes` of one effective suit: tractors, then pairs, then
    singles; largest first, strongest first among equals (R4). Three or more copies of a
    card (F2) go to `_split_wide`."""
    strengths = trump.strengths
    pairs: list[tuple[int, int]] = []  # (order, code); the two copies of a code are a pair
    singles: list[tuple[int, int]] = []
    index = 0
    count = len(codes)
    while index < count:
        code = codes[index]
        if index + 1 < count and codes[index + 1] == code:
            if index + 2 < count and codes[index + 2] == code:
                return _split_wide(codes, trump)
            pairs.append((strengths[code], code))
            index += 2
        else:
            singles.append((strengths[code], code))
            index += 1
    pairs.sort(reverse=True)  # strongest first, the higher code first among equal orders
    singles.sort(reverse=True)
    units = _tractors(pairs, 2)
    units.sort(key=lambda unit: (len(unit[1]), unit[2]), reverse=True)
    pair, single = UnitKind.PAIR, UnitKind.SINGLE
    units += [(pair, (ALL_CARDS[code],) * 2, order, 2, 1) for order, code in pairs]
    units += [(single, (ALL_CARDS[code],), order, 1, 1) for order, code in singles]
    return units


def _tractors(tuples: list[tuple[int, int]], width: int) -> list[Split]:
    """Take the tractors out of `tuples` ((order, code) of the tuples of one `width`, sorted
    strongest first): the longest run first, the highest among equally long runs."""
    units: list[Split] = []
    while len(tuples) >= 2:
        length, top = longest_run([order for order, _ in tuples])
        if length < 2:
            break
        chain: list[Card] = []
        for order in range(top, top - length, -1):
            at = next(i for i, (o, _) in enumerate(tuples) if o == order)
            card = ALL_CARDS[tuples.pop(at)[1]]
            chain += (card,) * width
        units.append((UnitKind.TRACTOR, tuple(chain), top, width, length))
    return units


def _split_wide(codes: Sequence[int], trump: Trump) -> list[Split]:
    """`_split` when some card has three or more copies (F2): every card's copies stay
    together as one tuple; the widest tuples first, within a width the longest tractors
    first, then the tuples left, strongest first; the singles last."""
    strengths = trump.strengths
    by_width: dict[int, list[tuple[int, int]]] = {}
    for code in sorted(set(codes)):
        by_width.setdefault(codes.count(code), []).append((strengths[code], code))
    units: list[Split] = []
    for width in sorted(by_width, reverse=True):
        tuples = sorted(by_width[width], reverse=True)
        if width == 1:
            units += [(UnitKind.SINGLE, (ALL_CARDS[code],), order, 1, 1)
                      for order, code in tuples]
            continue
        units += _tractors(tuples, width)
        kind = _TUPLE_KINDS[width]
        units += [(kind, (ALL_CARDS[code],) * width, order, width, 1)
                  for order, code in tuples]
    units.sort(key=_split_key, reverse=True)  # stable: codes stay strongest first
    return units


def _split_key(unit: Split) -> tuple[int, int, int]:
    return len(unit[1]), unit[3], unit[2]


_RANK = attrgetter("rank")


def decompose(cards: Iterable[Card], trump: Trump) -> list[Unit]:
    """The one structure of a play (R4, F2): longest tractors first, then pairs, then singles;
    with three or more copies of a card, the widest tuples first.

    Cards of several effective suits are decomposed suit by suit. Units come largest first
    (most cards, then widest), strongest first among equals.
    """
    units: list[Unit] = []
    for group in group_by_suit(cards, trump):
        units += decompose_suit(group, trump)
    units.sort(key=_RANK, reverse=True)
    return units


def shape_of(cards: Sequence[Card], trump: Trump | None, *, leading: bool = True) -> str:
    """``single`` / ``pair`` / ``triple`` / ``quad`` / ``tractor`` / ``throw`` / ``mixed``
    for a play. Only a lead of several units is a throw (R7); a follow of several units is
    ``mixed``."""
    if trump is None or not cards:
        return "mixed"
    suits = {trump.suit_index(c) for c in cards}
    if len(suits) > 1:
        return "mixed"
    units = decompose(list(cards), trump)
    if len(units) > 1:
        return "throw" if leading else "mixed"
    return units[0].kind.value
