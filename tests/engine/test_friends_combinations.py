"""F2 Combinations with three or four decks (docs/rules.md#f2): triples, quadruples,
tractors of one width, and the one reading of a play (widest tuples first)."""

from __future__ import annotations

from collections import Counter

import pytest
from friends_dsl import deal
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import T, cards, ref_pos

from engine import Trump, UnitKind, decompose
from engine.units import Unit, decompose_suit, group_by_suit, unit_cards

H2 = T("2H")


def shape(text: str, trump: str = "2H") -> list[tuple[str, int, int, str]]:
    return [(u.kind.value, u.width, u.length, " ".join(map(str, u.cards)))
            for u in decompose(cards(text), T(trump))]


def test_f2_triple_and_quadruple() -> None:
    assert shape("9S 9S 9S") == [("triple", 3, 1, "9S 9S 9S")]
    assert shape("RJ RJ RJ RJ") == [("quad", 4, 1, "RJ RJ RJ RJ")]
    assert UnitKind.TRIPLE == "triple" and UnitKind.QUAD == "quad"


def test_f2_tractors_of_triples_and_quadruples() -> None:
    assert shape("5S 5S 5S 6S 6S 6S") == [("tractor", 3, 2, "6S 6S 6S 5S 5S 5S")]
    assert shape("7S 7S 7S 7S 8S 8S 8S 8S") == [
        ("tractor", 4, 2, "8S 8S 8S 8S 7S 7S 7S 7S")]
    unit = decompose(cards("5S 5S 5S 6S 6S 6S 7S 7S 7S"), H2)[0]
    assert unit.describe() == "tractor of 3 triples" and unit.size == 9


def test_f2_tuples_of_different_widths_never_chain() -> None:
    assert shape("5S 5S 5S 6S 6S") == [("triple", 3, 1, "5S 5S 5S"), ("pair", 2, 1, "6S 6S")]


def test_f2_a_quadruple_is_never_two_pairs_of_a_tractor() -> None:
    assert shape("7S 7S 7S 7S 8S 8S") == [("quad", 4, 1, "7S 7S 7S 7S"),
                                          ("pair", 2, 1, "8S 8S")]
    assert [u[:3] for u in shape("6S 6S 7S 7S 7S 7S 8S 8S")] == [
        ("quad", 4, 1), ("pair", 2, 1), ("pair", 2, 1)]


def test_f2_widest_first_then_longest() -> None:
    assert shape("5S 5S 5S 6S 6S 7S 7S") == [("tractor", 2, 2, "7S 7S 6S 6S"),
                                             ("triple", 3, 1, "5S 5S 5S")]
    got = shape("AS AS AS KS KS KS QS 9S 9S 9S 9S")
    assert [u[:3] for u in got] == [("tractor", 3, 2), ("quad", 4, 1), ("single", 1, 1)]


def test_f2_largest_first_quadruple_before_two_pair_tractor() -> None:
    got = shape("3S 3S 4S 4S 9S 9S 9S 9S")
    assert [u[:3] for u in got] == [("quad", 4, 1), ("tractor", 2, 2)]


def test_f2_trump_chain_with_triples() -> None:
    """The R4 trump chain holds for any width: A of trump, off-suit L, L of trump, jokers."""
    assert shape("AD AD AD 4S 4S 4S", "4D")[0][:3] == ("tractor", 3, 2)
    assert shape("4D 4D 4D BJ BJ BJ RJ RJ RJ", "4D")[0][:3] == ("tractor", 3, 3)
    assert [u[:3] for u in shape("4S 4S 4S 4H 4H 4H", "4D")] == [("triple", 3, 1)] * 2


def test_f2_two_decks_unchanged() -> None:
    """No card twice more: the reading is R4's, with width 2 and a length per tractor."""
    unit = decompose(cards("3S 3S 4S 4S 5S 5S"), T("9H"))[0]
    assert (unit.kind, unit.width, unit.length, unit.pairs) == (UnitKind.TRACTOR, 2, 3, 3)
    assert [(u.width, u.length) for u in decompose(cards("9C 9C KD"), H2)] == [(2, 1), (1, 1)]


# ---- properties --------------------------------------------------------------------------


def _check_unit(unit: Unit, trump: Trump) -> None:
    width, length = unit.width, unit.length
    assert len(unit.cards) == width * length
    tuples = [unit.cards[i * width:(i + 1) * width] for i in range(length)]
    for group in tuples:
        assert len(set(group)) == 1, unit
    steps = [ref_pos(group[0], trump)[1] for group in tuples]
    assert steps == list(range(steps[0], steps[0] - length, -1)), unit
    if length > 1:
        assert unit.kind is UnitKind.TRACTOR and width >= 2
    else:
        assert unit.kind.value == {1: "single", 2: "pair", 3: "triple", 4: "quad"}[width]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]), st.booleans())
def test_f2_property_decomposition_partitions_the_cards(seed: int, decks: int,
                                                        narrow: bool) -> None:
    trump, hands = deal(seed, decks, 1, 30, narrow=narrow)
    hand = hands[0]
    units = decompose(hand, trump)
    assert Counter(c for u in units for c in u.cards) == Counter(hand)
    for unit in units:
        _check_unit(unit, trump)
    keys = [(u.size, u.width, u.top) for u in units]
    assert keys == sorted(keys, reverse=True)
    copies = Counter(hand)
    for unit in units:  # every card's copies stay together in one unit
        for card in set(unit.cards):
            assert unit.cards.count(card) == copies[card]
    for group in group_by_suit(hand, trump):
        if group:
            assert [u.cards for u in decompose_suit(group, trump)] == unit_cards(group, trump)


@pytest.mark.parametrize("decks", [3, 4])
def test_f2_decomposition_ignores_card_order(decks: int) -> None:
    trump, hands = deal(7, decks, 1, 30, narrow=True)
    base = [(u.kind, u.cards) for u in decompose(hands[0], trump)]
    assert [(u.kind, u.cards) for u in decompose(list(reversed(hands[0])), trump)] == base
