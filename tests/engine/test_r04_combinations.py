"""R4 Combinations: singles, pairs, tractors, and the one structure of a play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import BJ, RJ, T, cards, key, ref_shapes

from engine import Card, Rank, Suit, Trump, decompose, format_cards
from engine.units import decompose_suit, unit_cards


def shape(text: str, trump: str) -> list[tuple[str, str]]:
    """The decomposition as (kind, cards) pairs."""
    return [(u.kind.value, format_cards(u.cards)) for u in decompose(cards(text), T(trump))]


def kinds(text: str, trump: str) -> list[tuple[str, int]]:
    return [(u.kind.value, len(u.cards)) for u in decompose(cards(text), T(trump))]


def is_tractor(text: str, trump: str) -> bool:
    units = decompose(cards(text), T(trump))
    return len(units) == 1 and units[0].kind == "tractor" and \
        Counter(units[0].cards) == Counter(cards(text))


# ---------------------------------------------------------------- singles and pairs


def test_r4_any_card_is_a_single() -> None:
    for text in ("AS", "2S", "RJ", "BJ", "4D"):
        assert kinds(text, "4D") == [("single", 1)]


@pytest.mark.parametrize("text", ["AS AS", "RJ RJ", "BJ BJ", "4D 4D", "4S 4S", "2C 2C"])
def test_r4_pair_is_two_identical_cards(text: str) -> None:
    assert kinds(text, "4D") == [("pair", 2)]


@pytest.mark.parametrize("text", ["4S 4H", "4S 4D", "RJ BJ", "AS AH", "AS KS"])
def test_r4_different_cards_are_not_a_pair(text: str) -> None:
    """Two off-suit level cards of different suits are not a pair (R4)."""
    assert kinds(text, "4D") == [("single", 1), ("single", 1)]


def test_r4_no_trump_level_cards_of_different_suits_are_not_a_pair() -> None:
    assert kinds("4S 4H", "4NT") == [("single", 1), ("single", 1)]


# ---------------------------------------------------------------- tractors from R4


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("8S 8S 9S 9S", "2H"),
        ("JS JS QS QS KS KS", "2H"),
        ("3S 3S 5S 5S", "4H"),  # side suits skip L
        ("3S 3S 5S 5S", "4D"),
        ("KS KS AS AS", "4D"),
        ("AD AD 4S 4S", "4D"),  # trump A → off-suit L pair
        ("AD AD 4H 4H", "4D"),
        ("AD AD 4C 4C", "4D"),
        ("4S 4S 4D 4D", "4D"),  # off-suit L pair → L-of-T pair
        ("4D 4D BJ BJ", "4D"),  # L-of-T pair → black jokers
        ("BJ BJ RJ RJ", "4D"),
        ("AD AD 4S 4S 4D 4D BJ BJ RJ RJ", "4D"),  # the whole chain: 5 pairs
        ("KD KD AD AD 4H 4H", "4D"),
        ("3D 3D 5D 5D", "4D"),  # trump suit skips L too
        ("BJ BJ RJ RJ", "4NT"),  # no trump
        ("4S 4S BJ BJ", "4NT"),
        ("4C 4C BJ BJ RJ RJ", "4NT"),
        ("2S 2S 3S 3S", "AH"),
    ],
)
def test_r4_tractor_examples(text: str, trump: str) -> None:
    assert is_tractor(text, trump)


@pytest.mark.parametrize(
    ("text", "trump"),
    [
        ("4S 4S 4H 4H", "4D"),  # off-suit level pairs are equal, not adjacent
        ("4S 4S 4C 4C", "4D"),
        ("4S 4S 4H 4H", "4NT"),  # L pairs never chain with each other in no trump
        ("5S 5S 7S 7S", "2H"),  # six missing
        ("3D 3D 4D 4D", "4D"),  # 4D is a high trump; the next above 3D is 5D
        ("AD AD 4D 4D", "4D"),  # an off-suit L pair sits between them
        ("AS AS 2S 2S", "7H"),  # no wrap: the ace never chains above itself
        ("AD AD BJ BJ", "4D"),
        ("4D 4D RJ RJ", "4D"),
        ("4S 4S RJ RJ", "4NT"),
    ],
)
def test_r4_not_a_tractor(text: str, trump: str) -> None:
    assert not is_tractor(text, trump)
    assert all(u.kind == "pair" for u in decompose(cards(text), T(trump)))


def test_r4_pairs_of_different_suits_are_not_a_tractor() -> None:
    """`8S 8S 9H 9H` (different suits) and `4S 4S 5S 5S` at level 4 (4♠ is a trump)."""
    assert kinds("8S 8S 9H 9H", "2D") == [("pair", 2), ("pair", 2)]
    assert kinds("4S 4S 5S 5S", "4H") == [("pair", 2), ("pair", 2)]


def test_r4_ace_of_side_suit_does_not_chain_to_level_pair() -> None:
    """`AS AS 4S 4S` at level 4, diamonds trump: A♠ is a side card, 4♠ a trump."""
    units = decompose(cards("AS AS 4S 4S"), T("4D"))
    assert [u.kind.value for u in units] == ["pair", "pair"]
    assert {u.suit for u in units} == {Suit.SPADES, "T"}


@pytest.mark.parametrize("level", [r for r in Rank if not r.is_joker])
@pytest.mark.parametrize("trump_suit", ["H", "D", "C", "S", "NT"])
def test_r4_three_four_five_of_spades_is_one_three_pair_tractor(level: Rank,
                                                                 trump_suit: str) -> None:
    """`3S 3S 4S 4S 5S 5S` at any level other than 3–5 is one 3-pair tractor (R4)."""
    trump = Trump(level, None if trump_suit == "NT" else Suit(trump_suit))
    units = decompose(cards("3S 3S 4S 4S 5S 5S"), trump)
    if level in (Rank.THREE, Rank.FOUR, Rank.FIVE):
        assert all(u.kind != "tractor" or len(u.cards) < 6 for u in units)
    else:
        assert [(u.kind, len(u.cards)) for u in units] == [("tractor", 6)]


# ---------------------------------------------------------------- one structure


def test_r4_longest_tractor_first() -> None:
    assert kinds("5S 5S 6S 6S 7S 7S 8S 8S", "2H") == [("tractor", 8)]
    assert kinds("3S 3S 4S 4S 5S 5S 7S 7S 8S 8S", "2H") == [("tractor", 6), ("tractor", 4)]
    assert kinds("3S 3S 4S 4S 5S 5S 9S 9S KS", "2H") == [("tractor", 6), ("pair", 2),
                                                          ("single", 1)]


def test_r4_identical_cards_always_count_as_a_pair() -> None:
    assert kinds("AS AS KS QS", "2H") == [("pair", 2), ("single", 1), ("single", 1)]
    assert kinds("4S 4S 4H 4D", "4D") == [("pair", 2), ("single", 1), ("single", 1)]


def test_r4_equal_level_pairs_one_chains_the_other_stays_a_pair() -> None:
    """Two off-suit level pairs that could each chain to the trump ace pair: one does."""
    units = decompose(cards("AD AD 4S 4S 4H 4H"), T("4D"))
    assert [(u.kind.value, len(u.cards)) for u in units] == [("tractor", 4), ("pair", 2)]
    tractor, pair = units
    assert tractor.cards[-2:] == tuple(cards("AD AD"))
    assert {str(tractor.cards[0]), str(pair.cards[0])} == {"4S", "4H"}
    units = decompose(cards("4S 4S 4H 4H 4D 4D"), T("4D"))
    assert [(u.kind.value, len(u.cards)) for u in units] == [("tractor", 4), ("pair", 2)]


def test_r4_decomposition_is_deterministic_under_order() -> None:
    rng = random.Random(7)
    for text, trump in [("AD AD 4S 4S 4H 4H 4C 4C 4D 4D KD", "4D"),
                        ("4S 4H 4C AD KD", "4D"),
                        ("4S 4S 4H 4H 4C 4C BJ", "4NT"),
                        ("3S 3S 4S 4S 5S 5S 7S 7S 8S 8S 9H 9H 2H RJ", "2H")]:
        base = [(u.kind, u.cards) for u in decompose(cards(text), T(trump))]
        for _ in range(25):
            shuffled = cards(text)
            rng.shuffle(shuffled)
            assert [(u.kind, u.cards) for u in decompose(shuffled, T(trump))] == base


def test_r4_units_come_largest_first_and_cover_the_play() -> None:
    play = cards("9S 9S 8S 8S AS KS KS 3H 2H 2H")
    units = decompose(play, T("7C"))
    sizes = [len(u.cards) for u in units]
    assert sizes == sorted(sizes, reverse=True)
    assert Counter(c for u in units for c in u.cards) == Counter(play)


def test_r4_unit_kind_is_a_str_enum() -> None:
    (unit,) = decompose(cards("KS KS QS QS"), T("2H"))
    assert unit.kind == "tractor" and isinstance(unit.kind, str)
    assert {u.kind for u in decompose(cards("AS KS KS"), T("2H"))} == {"single", "pair"}


# ---------------------------------------------------------------- property: vs the rule text

TRUMPS = [T(t) for t in ("2H", "4D", "7S", "AC", "10NT", "4NT")]


@st.composite
def one_suit_play(draw: st.DrawFn) -> tuple[list[Card], Trump]:
    trump = draw(st.sampled_from(TRUMPS))
    pool = [c for c in set(cards(
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2D 3D 4D 5D 6D AD 4H 4C 7H 10H AC KC RJ BJ"))]
    pool.sort(key=lambda c: c.code)
    suit = trump.effective_suit(draw(st.sampled_from(pool)))
    same = [c for c in pool if trump.effective_suit(c) == suit]
    counts = draw(st.lists(st.integers(0, 2), min_size=len(same), max_size=len(same)))
    play = [c for c, k in zip(same, counts, strict=True) for _ in range(k)]
    return play or same[:1], trump


@settings(max_examples=300, deadline=None)
@given(one_suit_play())
def test_r4_property_decompose_matches_rule_text(case: tuple[list[Card], Trump]) -> None:
    """Same unit shapes (kind, pairs, top strength) as a literal longest-tractors-first
    reading of R4, and the units hold exactly the play's cards."""
    play, trump = case
    units = decompose(play, trump)
    assert key(c for u in units for c in u.cards) == key(play)
    ref = ref_shapes(play, trump)
    mine = sorted(((u.kind.value, len(u.cards) // 2 if u.kind != "single" else 0)
                   for u in units), reverse=True)
    assert mine == sorted(((k, n) for k, n, _ in ref), reverse=True)


@settings(max_examples=200, deadline=None)
@given(one_suit_play())
def test_r4_unit_cards_are_the_cards_of_decompose_suit(case: tuple[list[Card], Trump]) -> None:
    """`unit_cards` (no `Unit`s, no cache) gives each unit's cards in `decompose_suit` order."""
    play, trump = case
    assert unit_cards(play, trump) == [u.cards for u in decompose_suit(play, trump)]


def test_r4_jokers_pair_only_with_their_twin() -> None:
    assert kinds("RJ RJ BJ", "2H") == [("pair", 2), ("single", 1)]
    assert RJ != BJ
