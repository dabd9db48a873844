"""Leading, and whether a throw stands (R7)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.matching import pair_counts, strongest_tractor, strongest_unit, tuple_counts
from engine.reasons import ENGLISH_SUITS, SUIT_CODES, Reason, ruling
from engine.trump import Trump
from engine.units import Unit, UnitKind, decompose_suit


def suit_name(suit_index: int) -> str:
    """A suit in English: ♠ ♥ ♦ ♣, or "trump"."""
    return ENGLISH_SUITS[SUIT_CODES[suit_index]]


def lead_error(cards: Sequence[Card], trump: Trump) -> Reason | None:
    """Why `cards` cannot be led, or `None`: a lead is cards of one effective suit (R7)."""
    if not cards:
        return ruling("lead.empty")
    suit_indexes = trump.suit_indexes
    suits = {suit_indexes[card.code] for card in cards}
    if len(suits) > 1:
        return ruling("lead.mixed_suits", suits="".join(SUIT_CODES[s] for s in sorted(suits)))
    return None


def beats_unit(unit: Unit, cards: Sequence[Card], trump: Trump) -> bool:
    """Whether `cards` (one player's cards of the unit's suit) hold a stronger unit (R7): a
    stronger tuple of the unit's width, or tractor of its width and length (F2; a card held
    more times than the width makes one, so a higher quadruple beats a triple)."""
    if unit.kind is UnitKind.SINGLE:
        strengths = trump.strengths
        return any(strengths[card.code] > unit.top for card in cards)
    if unit.width > 2:
        top = strongest_unit(tuple_counts(cards, trump, unit.width), unit.length)
        return top is not None and top > unit.top
    counts = pair_counts(cards, trump)
    if unit.kind is UnitKind.PAIR:
        return any(counts[order] for order in range(unit.top + 1, len(counts)))
    top = strongest_tractor(counts, unit.pairs)
    return top is not None and top > unit.top


def check_throw(
    lead: Sequence[Card], others: Sequence[Sequence[Card]], trump: Trump
) -> list[Card] | None:
    """`None` when the lead stands; for a failed throw, the cards played instead (R7).

    `others` are the other three players' hands. A throw fails if any of its units is
    beatable in its suit by one other player; the forced play is the smallest beatable
    unit: fewest cards, then weakest.
    """
    if len(lead) == 1:  # a single card is no throw
        return None
    units = decompose_suit(lead, trump)
    if len(units) <= 1:
        return None
    suits = trump.suit_indexes
    suit = suits[lead[0].code]
    hands = [[c for c in hand if suits[c.code] == suit] for hand in others]
    beatable = [u for u in units if any(beats_unit(u, hand, trump) for hand in hands)]
    if not beatable:
        return None
    smallest = min(beatable, key=lambda u: (u.size, u.top))
    return list(smallest.cards)
