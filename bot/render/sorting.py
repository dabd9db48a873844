"""The order players hold their cards in: trumps first, then side suits (R3).

Trumps (a trump is set): red jokers, black jokers, the level card of the trump suit, the
other level cards (equal; shown ♠ ♥ ♣ ♦), then the trump suit from A down to 2. Side suits
follow in the order ♠ ♥ ♣ ♦ (alternating colours), each from A down to 2.
Before trump is set (declaring): jokers and level cards first, then each suit.
The bot's per-suit selects should use `hand_groups` so they match the picture.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.cards import Card, Rank, Suit
from engine.trump import Trump

SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_SUIT_RANK: Final = {suit: i for i, suit in enumerate(SUIT_ORDER)}


def _suit_rank(card: Card) -> int:
    return -1 if card.suit is None else _SUIT_RANK[card.suit]


def hand_groups(cards: Iterable[Card], trump: Trump | None, level: Rank) -> list[list[Card]]:
    """`cards` split into suit groups in display order, each sorted high to low.

    The first group is the trumps (or, with `trump=None`, the jokers and level cards);
    empty groups are left out. `level` is used only when `trump` is None.
    """
    cards = list(cards)
    if trump is None:
        top = [c for c in cards if c.rank.is_joker or c.rank == level]
        top.sort(key=lambda c: (-c.rank, _suit_rank(c)))
        groups = [top]
        for suit in SUIT_ORDER:
            group = [c for c in cards if c.suit == suit and c.rank != level]
            group.sort(key=lambda c: -c.rank)
            groups.append(group)
    else:
        trumps = [c for c in cards if trump.is_trump(c)]
        trumps.sort(key=lambda c: (-trump.strength(c), _suit_rank(c)))
        groups = [trumps]
        for suit in SUIT_ORDER:
            group = [c for c in cards if not trump.is_trump(c) and c.suit == suit]
            group.sort(key=lambda c: -trump.strength(c))
            groups.append(group)
    return [group for group in groups if group]


def sort_hand(cards: Iterable[Card], trump: Trump | None, level: Rank) -> list[Card]:
    """`cards` in display order (the groups of `hand_groups`, concatenated)."""
    return [card for group in hand_groups(cards, trump, level) for card in group]

