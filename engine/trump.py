"""Trumps and card order (R3): effective suits, strengths and tractor adjacency (R4)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from engine.cards import ALL_CARDS, Card, Rank, Suit, as_rank
from engine.reasons import InvalidNotation, ruling

TRUMPS: Literal["T"] = "T"
"""The effective suit of every trump card (jokers, level cards, the trump suit)."""

EffectiveSuit = Suit | Literal["T"]

SUIT_INDEX: dict[EffectiveSuit, int] = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2,
                                         Suit.CLUBS: 3, TRUMPS: 4}
SUITS_BY_INDEX: tuple[EffectiveSuit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS,
                                             Suit.CLUBS, TRUMPS)


@dataclass(frozen=True, slots=True)
class Trump:
    """The trump of a hand: the level rank and the trump suit (`None` for no trump).

    Each card gets an effective suit and an *order*: consecutive integers within its
    effective suit, so two pairs are adjacent for a tractor exactly when their orders
    differ by one (R4). Off-suit level cards share one order (they are equal, R3).
    """

    level: Rank
    suit: Suit | None
    _suit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _order_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _sort_key: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Per card code: one int ordering like (effective suit, order, code), for `sort`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "level", as_rank(self.level))  # also accept "4" or 4
        if self.level.is_joker:
            raise ValueError("the level is a rank from 2 to A")
        suit_of, order_of, sort_key = _tables(self.level, self.suit)
        object.__setattr__(self, "_suit_of", suit_of)
        object.__setattr__(self, "_order_of", order_of)
        object.__setattr__(self, "_sort_key", sort_key)

    @classmethod
    def parse(cls, text: str) -> Trump:
        """`"4D"` → level 4, diamonds trump; `"4NT"` → level 4, no trump; `"10♠"` works too."""
        raw = text.strip().upper()
        if raw.endswith("NT"):
            return cls(Rank.parse(raw[:-2]), None)
        if len(raw) < 2:
            raise InvalidNotation(ruling("notation.trump", token=text), text)
        return cls(Rank.parse(raw[:-1]), Suit.parse(raw[-1]))

    def __str__(self) -> str:
        return f"{self.level}{self.suit.value if self.suit else 'NT'}"

    @property
    def suit_indexes(self) -> tuple[int, ...]:
        """`suit_index` of every card, indexed by `Card.code`: for loops over many cards,
        `suit_indexes[card.code]` saves a method call per card."""
        return self._suit_of

    @property
    def strengths(self) -> tuple[int, ...]:
        """`strength` of every card, indexed by `Card.code` (see `suit_indexes`)."""
        return self._order_of

    def is_trump(self, card: Card) -> bool:
        """Jokers, level cards and cards of the trump suit (R3)."""
        return self._suit_of[card.code] == 4

    def effective_suit(self, card: Card) -> EffectiveSuit:
        """`TRUMPS` for a trump, else the card's printed suit (R3)."""
        return SUITS_BY_INDEX[self._suit_of[card.code]]

    def suit_index(self, card: Card) -> int:
        """0–3 for the side suits S H D C, 4 for trumps (fast form of `effective_suit`)."""
        return self._suit_of[card.code]

    def strength(self, card: Card) -> int:
        """The card's order within its effective suit; higher beats lower, equal ties (R3)."""
        return self._order_of[card.code]

    def key(self, card: Card) -> tuple[int, int]:
        """Sort key: effective suit, then strength (trumps last, strongest last)."""
        return self._suit_of[card.code], self._order_of[card.code]

    def sort(self, cards: Iterable[Card], *, descending: bool = True) -> list[Card]:
        """Cards grouped by effective suit (trumps first when descending), strongest first."""
        sort_key = self._sort_key
        return sorted(cards, key=lambda c: sort_key[c.code], reverse=descending)


@cache
def _tables(level: Rank, trump_suit: Suit | None
            ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Per card code: effective suit index, order, and a sort key packing (effective suit,
    order, code) in one int (orders < 16, codes < 64)."""
    side_ranks = [r for r in Rank if not r.is_joker and r != level]  # 12 ranks, 2..A without L
    suit_of: list[int] = []
    order_of: list[int] = []
    for card in ALL_CARDS:
        if card.suit is None:  # jokers: black then red, above every level card
            black = 14 if trump_suit is not None else 1
            suit_of.append(4)
            order_of.append(black + (1 if card.rank == Rank.RED_JOKER else 0))
        elif card.rank == level:
            suit_of.append(4)
            if trump_suit is None:
                order_of.append(0)  # no trump: the four level cards are equal
            else:
                order_of.append(13 if card.suit == trump_suit else 12)
        elif card.suit == trump_suit:
            suit_of.append(4)
            order_of.append(side_ranks.index(card.rank))
        else:
            suit_of.append(SUIT_INDEX[card.suit])
            order_of.append(side_ranks.index(card.rank))
    sort_key = [(suit * 16 + order) * 64 + code
                for code, (suit, order) in enumerate(zip(suit_of, order_of, strict=True))]
    return tuple(suit_of), tuple(order_of), tuple(sort_key)

