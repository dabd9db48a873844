"""Combinations (R4): singles, pairs and tractors, and the one structure of a play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from engine.cards import ALL_CARDS, Card
from engine.trump import EffectiveSuit, Trump


class UnitKind(StrEnum):
    """The shape of a unit of a play."""

    SINGLE = "single"
    PAIR = "pair"
    TRACTOR = "tractor"


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a play: a single, a pair, or a tractor of `pairs` consecutive pairs.

    `top` is the strength (R3 order) of its highest card or pair; `cards` run from the
    strongest down.
    """

    kind: UnitKind
    cards: tuple[Card, ...]
    suit: EffectiveSuit
    top: int

    @property
    def pairs(self) -> int:
        """Number of pairs (0 for a single)."""
        return len(self.cards) // 2

    @property
    def size(self) -> int:
        return len(self.cards)

    def describe(self) -> str:
        """`"pair"`, `"tractor of 3 pairs"` …, for messages."""
        if self.kind is UnitKind.TRACTOR:
            return f"tractor of {self.pairs} pairs"
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
    return list(_decompose_codes(tuple(sorted(card.code for card in cards)), trump))


def unit_cards(cards: Sequence[Card], trump: Trump) -> list[tuple[Card, ...]]:
    """The cards of each unit of `decompose_suit(cards, trump)`, in the same order, without
    building `Unit`s or caching: for one-off decompositions, like a random lead from a
    hand's suit (which seldom repeats)."""
    if not cards:
        return []
    return [unit for _, unit, _ in _split(sorted(card.code for card in cards), trump)]


@lru_cache(maxsize=1 << 12)
def _decompose_codes(codes: tuple[int, ...], trump: Trump) -> tuple[Unit, ...]:
    """`decompose_suit` keyed by sorted card codes: a lead is decomposed many times a trick.

    The cache stays small: its units are objects the garbage collector walks through, and
    the reuse that matters (one lead, several checks) is recent.
    """
    suit = trump.effective_suit(ALL_CARDS[codes[0]])
    return tuple([Unit(kind, unit, suit, top) for kind, unit, top in _split(codes, trump)])


def _split(codes: Sequence[int], trump: Trump) -> list[tuple[UnitKind, tuple[Card, ...], int]]:
    """The units of sorted card `codes` of one effective suit as (kind, cards, top): tractors,
    then pairs, then singles; largest first, strongest first among equals."""
    strengths = trump.strengths
    pairs: list[tuple[int, int]] = []  # (order, code); the two copies of a code are a pair
    singles: list[tuple[int, int]] = []
    index = 0
    while index < len(codes):
        code = codes[index]
        if index + 1 < len(codes) and codes[index + 1] == code:
            pairs.append((strengths[code], code))
            index += 2
        else:
            singles.append((strengths[code], code))
            index += 1
    pairs.sort(reverse=True)  # strongest first, the higher code first among equal orders
    singles.sort(reverse=True)
    units: list[tuple[UnitKind, tuple[Card, ...], int]] = []
    while len(pairs) >= 2:
        length, top = longest_run([order for order, _ in pairs])
        if length < 2:
            break
        chain: list[Card] = []
        for order in range(top, top - length, -1):
            at = next(i for i, (o, _) in enumerate(pairs) if o == order)
            card = ALL_CARDS[pairs.pop(at)[1]]
            chain += (card, card)
        units.append((UnitKind.TRACTOR, tuple(chain), top))
    units.sort(key=lambda unit: (len(unit[1]), unit[2]), reverse=True)
    pair, single = UnitKind.PAIR, UnitKind.SINGLE
    units += [(pair, (ALL_CARDS[code],) * 2, order) for order, code in pairs]
    units += [(single, (ALL_CARDS[code],), order) for order, code in singles]
    return units


def decompose(cards: Iterable[Card], trump: Trump) -> list[Unit]:
    """The one structure of a play (R4): longest tractors first, then pairs, then singles.

    Cards of several effective suits are decomposed suit by suit. Units come largest first,
    strongest first among equals.
    """
    units: list[Unit] = []
    for group in group_by_suit(cards, trump):
        units += decompose_suit(group, trump)
    units.sort(key=lambda u: (len(u.cards), u.top), reverse=True)
    return units
