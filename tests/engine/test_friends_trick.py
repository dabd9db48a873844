"""F2 Who wins a trick with three or four decks (docs/rules.md#f2, R9): only the lead's
exact shape wins in its suit; ruffs cover every unit with its own shape; ruffs of throws
with tuples under every `throw_ruff` option."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from friends_dsl import deal, ref_units, wide_lead
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards, ref_pos

from engine import Card, Trump, trick_winner
from engine.follow import answer_wide, random_legal_follow
from engine.matching import wide_shapes
from engine.rules import ThrowRuff
from engine.units import decompose_suit

H2 = T("2H")
LARGEST, EVERY, HIGHEST = ThrowRuff.LARGEST_UNIT, ThrowRuff.EVERY_UNIT, ThrowRuff.HIGHEST_CARD


def win(*plays: str, rule: ThrowRuff = LARGEST) -> int:
    return trick_winner([cards(p) for p in plays], H2, rule)


# ---- in the led suit ---------------------------------------------------------------------


def test_f2_triple_beaten_by_a_stronger_triple_only() -> None:
    assert win("5S 5S 5S", "9S 9S 9S", "8S 8S 8S", "AS AS KS") == 1
    assert win("5S 5S 5S", "5S 5S 5S", "3S 3S 3S") == 0  # equal: the earlier play keeps it
    assert win("5S 5S 5S", "AS AS KS") == 0


def test_f2_shape_must_match_exactly() -> None:
    assert win("5S 5S 6S 6S", "9S 9S 9S 9S") == 0  # a quadruple is no tractor of pairs
    assert win("5S 5S 6S 6S 7S 7S", "9S 9S 9S 10S 10S 10S") == 0
    assert win("5S 5S 5S 6S 6S 6S", "9S 9S 9S 10S 10S 10S") == 1
    assert win("5S 5S 5S 5S", "9S 9S 9S 9S") == 1


def test_f2_a_throw_that_stood_is_not_beaten_in_its_suit() -> None:
    assert win("AS AS AS KS", "QS QS QS QS") == 0


# ---- ruffs -------------------------------------------------------------------------------


def test_f2_ruff_of_a_triple_needs_a_trump_triple() -> None:
    assert win("5S 5S 5S", "3H 3H 3H") == 1
    assert win("5S 5S 5S", "3H 3H 4H") == 0  # loose trumps never beat a triple
    assert win("5S 5S 5S", "3H 3H 3H", "4H 4H 4H") == 2
    assert win("5S 5S 5S", "4H 4H 4H", "3H 3H 3H") == 1
    assert win("5S 5S 5S", "4H 4H 4H", "4H 4H 4H") == 1


def test_f2_ruff_of_a_tractor_of_triples() -> None:
    lead = "5S 5S 5S 6S 6S 6S"
    assert win(lead, "3H 3H 3H 4H 4H 4H") == 1
    assert win(lead, "3H 3H 3H 5H 5H 5H") == 0  # two trump triples, not a tractor
    assert win(lead, "3H 3H 3H 4H 4H 4H", "9H 9H 9H 10H 10H 10H") == 2


def test_f2_four_equal_trumps_cover_two_pairs() -> None:
    for rule in ThrowRuff:
        assert win("AS AS QS QS", "3H 3H 3H 3H", rule=rule) == 1
        assert win("AS AS QS QS", "3H 3H 3H 3H", "4H 4H 9H 9H", rule=rule) == 2
        assert win("AS AS QS QS", "4H 4H 9H 9H", "3H 3H 3H 3H", rule=rule) == 1


def test_f2_quadruple_ruff_covers_a_triple_and_a_single() -> None:
    assert win("AS AS AS KS", "3H 3H 3H 3H") == 1


RULE_BOOK = ("AS AS AS KS KS", "3H 3H 3H 9H 9H", "4H 4H 4H 6H 6H")


@pytest.mark.parametrize(("rule", "winner"), [(LARGEST, 2), (EVERY, 1), (HIGHEST, 1)])
def test_f2_ruffs_of_a_throw_with_a_triple_rule_book_example(rule: ThrowRuff,
                                                             winner: int) -> None:
    assert win(*RULE_BOOK, rule=rule) == winner
    assert win(RULE_BOOK[0], "3H 4H 6H 9H 9H", rule=rule) == 0  # no triple: no ruff


@pytest.mark.parametrize("rule", list(ThrowRuff))
def test_f2_a_ruff_beating_every_unit_wins_under_every_option(rule: ThrowRuff) -> None:
    assert win(RULE_BOOK[0], "3H 3H 3H 6H 6H", "4H 4H 4H 9H 9H", rule=rule) == 2


def test_f2_every_unit_doubt_favours_the_earlier_ruff() -> None:
    """Under `every_unit` a quadruple `9♥` placed on a throw of a triple and a single defends
    as a triple 9 and a single 9; `10♥ 10♥ 10♥ 3♥` fails on the single."""
    lead = "AS AS AS KS"
    assert win(lead, "9H 9H 9H 9H", "10H 10H 10H 3H", rule=EVERY) == 1
    assert win(lead, "9H 9H 9H 9H", "10H 10H 10H JH", rule=EVERY) == 2
    assert win(lead, "9H 9H 9H 9H", "10H 10H 10H 3H", rule=LARGEST) == 2
    assert win(lead, "9H 9H 9H 9H", "10H 10H 10H 3H", rule=HIGHEST) == 2


def test_f2_trump_lead_is_not_ruffed() -> None:
    assert win("3H 3H 3H", "RJ RJ RJ") == 1
    assert win("3H 3H 3H KH", "RJ RJ RJ AH", rule=EVERY) == 0


# ---- properties --------------------------------------------------------------------------


def _trick(seed: int, decks: int, seats: int) -> tuple[Trump, list[list[Card]]]:
    trump, hands = deal(seed, decks, seats, 24, narrow=True, trumps=True)
    rng = random.Random(seed)
    lead = wide_lead(hands[0], trump, rng)
    suit = trump.suit_index(lead[0])
    plays = [lead]
    for hand in hands[1:]:
        held = [c for c in hand if trump.suit_index(c) == suit]
        trumps = [c for c in hand if trump.is_trump(c)]
        if rng.random() < 0.5 and suit != 4 and len(trumps) >= len(lead):  # a ruff attempt
            shapes = wide_shapes((u.width, u.length) for u in decompose_suit(lead, trump))
            plays.append(answer_wide(trumps, shapes, len(lead), trump,
                                     prefer_high=rng.random() < 0.5,
                                     fill_key=lambda c: rng.random()))
        elif held or rng.random() < 0.5:
            plays.append(random_legal_follow(hand, lead, trump, rng))
        else:
            plays.append(rng.sample(hand, len(lead)))
    return trump, plays


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 4]), st.integers(4, 6))
def test_f2_property_trick_winner_is_consistent(seed: int, decks: int, seats: int) -> None:
    trump, plays = _trick(seed, decks, seats)
    suit = trump.suit_index(plays[0][0])
    ruffs = [k for k in range(1, len(plays)) if suit != 4
             and {trump.suit_index(c) for c in plays[k]} == {4} and _covers(plays[0], plays[k],
                                                                           trump)]
    for rule in ThrowRuff:
        previous = 0
        for k in range(1, len(plays)):
            now = trick_winner(plays[:k + 1], trump, rule)
            assert now in (previous, k)
            if ruffs and k == ruffs[0]:
                assert now == k  # the first ruff takes the trick under every option
            if now == k:
                suits = {trump.suit_index(c) for c in plays[k]}
                assert suits in ({suit}, {4})
                if suits == {4} and suit != 4:
                    assert _covers(plays[0], plays[k], trump)
            previous = now
        if len(decompose_suit(plays[0], trump)) == 1 and rule is LARGEST:
            assert previous == _ref_unit_winner(plays, trump)


def _covers(lead: Sequence[Card], play: Sequence[Card], trump: Trump) -> bool:
    """Every lead unit answered by a trump unit of its own shape, by trying every way."""
    shapes = [(u.width, u.length) for u in decompose_suit(lead, trump) if u.width > 1]

    def place(index: int, left: list[Card]) -> bool:
        if index == len(shapes):
            return True
        for unit in ref_units(left, trump, *shapes[index]):
            rest = list(left)
            for card in unit:
                rest.remove(card)
            if place(index + 1, rest):
                return True
        return False

    return place(0, list(play))


def _ref_unit_winner(plays: Sequence[Sequence[Card]], trump: Trump) -> int:
    """R9/F2 literally for a lead of one unit: the exact shape in suit, or a trump unit of
    that shape, compared by their top ladder step; ties keep the earlier play."""
    lead = plays[0]
    unit = decompose_suit(lead, trump)[0]
    suit = trump.suit_index(lead[0])
    width, length = unit.width, unit.length
    winner, best, ruffed = 0, max(ref_pos(c, trump)[1] for c in lead), False
    for k, play in enumerate(plays[1:], start=1):
        suits = {trump.suit_index(c) for c in play}
        units = ref_units(play, trump, width, length)
        if suits == {suit} and not ruffed:
            exact = [u for u in units if Counter(u) == Counter(play)]
            if exact and max(ref_pos(c, trump)[1] for c in play) > best:
                winner, best = k, max(ref_pos(c, trump)[1] for c in play)
        elif suit != 4 and suits == {4} and units:
            top = max(max(ref_pos(c, trump)[1] for c in u) for u in units)
            if not ruffed or top > best:
                winner, best, ruffed = k, top, True
    return winner
