"""Who wins a trick (R9)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.matching import (
    Shape,
    best_answer,
    full_answer,
    full_wide_answer,
    pair_counts,
    shapes_of,
    strongest_tractor,
    strongest_unit,
    tuple_counts,
    wide_answer,
    wide_shapes,
)
from engine.placement import Profile, beats, defence, profiles, wide_profiles
from engine.rules import ThrowRuff
from engine.trump import Trump
from engine.units import Unit, UnitKind, decompose_lead, decompose_suit

TRUMP_SUIT = 4


def trick_winner(plays: Sequence[Sequence[Card]], trump: Trump,
                 throw_ruff: ThrowRuff = ThrowRuff.LARGEST_UNIT) -> int:
    """Index into `plays` of the winning play; `plays[0]` is the lead (R9).

    A play takes over only with the lead's exact structure in the led suit and strictly
    stronger, or, against a side-suit lead, as a ruff: all trumps covering every lead unit's
    shape and stronger than the current winner. Ruffs are compared by the units answering
    the lead's largest unit (R9), or under R12 `throw_ruff` by every unit
    (`engine.placement`) or by their highest card. Ties keep the earlier play.
    """
    lead = plays[0]
    suit_indexes = trump.suit_indexes
    suit = suit_indexes[lead[0].code]
    if len(lead) == 1:
        return _single_winner(plays, suit, trump)
    units, has_wide = decompose_lead(lead, trump)
    wide = tuple((u.width, u.length) for u in units) if has_wide else None  # F2
    shapes = shapes_of(u.pairs for u in units)
    largest = units[0]
    if len(units) > 1 and throw_ruff is not ThrowRuff.LARGEST_UNIT:
        return _throw_winner(plays, suit, shapes, trump, throw_ruff, wide)
    winner, best, ruffed = 0, largest.top, False
    for index, play in enumerate(plays[1:], start=1):
        suits = {suit_indexes[card.code] for card in play}
        if suits == {suit}:
            if len(units) == 1 and not ruffed:
                answer = decompose_suit(play, trump)
                if (len(answer) == 1 and answer[0].kind is largest.kind
                        and answer[0].size == largest.size and answer[0].top > best
                        and answer[0].width == largest.width):
                    winner, best = index, answer[0].top
        elif suit != TRUMP_SUIT and suits == {TRUMP_SUIT}:
            if not _covers(shapes, wide, play, trump):
                continue  # two loose trumps never beat a pair (R9)
            key = _ruff_strength(largest, play, trump)
            if not ruffed or key > best:
                winner, best, ruffed = index, key, True
    return winner


def _covers(shapes: tuple[int, ...], wide: tuple[Shape, ...] | None, play: Sequence[Card],
            trump: Trump) -> bool:
    """Whether the trumps `play` answer every unit of the lead with its own shape (R9): the
    lead's pair shapes, or with triples or quadruples in it its `wide` shapes (F2)."""
    if wide is None:
        return best_answer(shapes, pair_counts(play, trump)) == full_answer(shapes)
    paired = wide_shapes(wide)
    return wide_answer(paired, play, trump) == full_wide_answer(paired)


def _throw_winner(plays: Sequence[Sequence[Card]], suit: int, shapes: tuple[int, ...],
                  trump: Trump, throw_ruff: ThrowRuff,
                  wide: tuple[Shape, ...] | None = None) -> int:
    """`trick_winner` for a throw under R12 `throw_ruff` `every_unit` or `highest_card`.

    A throw that stood cannot be beaten in its suit (R7, R9); only ruffs of a side-suit throw
    take over: the first covering ruff, then a later one that beats every unit of the winning
    ruff (`engine.placement`), or whose highest card is stronger.
    """
    if suit == TRUMP_SUIT:
        return 0
    suit_indexes, strengths = trump.suit_indexes, trump.strengths
    winner, best_card = 0, -1
    guard: Profile = ()
    for index, play in enumerate(plays[1:], start=1):
        if any(suit_indexes[card.code] != TRUMP_SUIT for card in play):
            continue
        if throw_ruff is ThrowRuff.HIGHEST_CARD:
            if not _covers(shapes, wide, play, trump):
                continue  # two loose trumps never beat a pair (R9)
            top = max(strengths[card.code] for card in play)
            if winner == 0 or top > best_card:
                winner, best_card = index, top
            continue
        placements = (profiles(shapes, play, trump) if wide is None
                      else wide_profiles(wide, play, trump))
        if placements and (winner == 0 or beats(placements, guard)):
            winner, guard = index, defence(placements)
    return winner


def _single_winner(plays: Sequence[Sequence[Card]], suit: int, trump: Trump) -> int:
    """`trick_winner` for a single card led: the common case, kept lean."""
    suits, strengths = trump.suit_indexes, trump.strengths
    winner, best, ruffed = 0, strengths[plays[0][0].code], False
    for index in range(1, len(plays)):
        code = plays[index][0].code
        card_suit, strength = suits[code], strengths[code]
        if card_suit == suit:
            if not ruffed and strength > best:
                winner, best = index, strength
        elif card_suit == TRUMP_SUIT and (not ruffed or strength > best):
            winner, best, ruffed = index, strength, True
    return winner


def _ruff_strength(largest: Unit, play: Sequence[Card], trump: Trump) -> int:
    """A ruff's strength: its strongest unit of the shape of the lead's largest unit (R9;
    a tuple or tractor of the same width, F2)."""
    if largest.kind is UnitKind.SINGLE:
        return max(trump.strength(card) for card in play)
    if largest.width > 2:
        found = strongest_unit(tuple_counts(play, trump, largest.width), largest.length)
        assert found is not None, "a covering ruff holds a unit of the lead's largest shape"
        return found
    counts = pair_counts(play, trump)
    if largest.kind is UnitKind.PAIR:
        return max(order for order, count in enumerate(counts) if count)
    top = strongest_tractor(counts, largest.pairs)
    assert top is not None, "a covering ruff holds a tractor of the lead's length"
    return top
