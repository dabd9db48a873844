"""R1 Table and cards: notation, the 108-card pack, point cards."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tractor_dsl import BJ, RJ, cards

from engine import (
    Card,
    InvalidNotation,
    Rank,
    Suit,
    TractorError,
    Trump,
    card_points,
    format_cards,
    full_deck,
    parse_cards,
)

DISTINCT = sorted(set(full_deck()), key=lambda c: c.code)


# ---------------------------------------------------------------- parsing


def test_r1_parse_canonical_tokens() -> None:
    got = parse_cards("AS KH QD JC 10S 9H 2C RJ BJ")
    assert [(c.rank, c.suit) for c in got] == [
        (Rank.ACE, Suit.SPADES), (Rank.KING, Suit.HEARTS), (Rank.QUEEN, Suit.DIAMONDS),
        (Rank.JACK, Suit.CLUBS), (Rank.TEN, Suit.SPADES), (Rank.NINE, Suit.HEARTS),
        (Rank.TWO, Suit.CLUBS), (Rank.RED_JOKER, None), (Rank.BLACK_JOKER, None),
    ]


def test_r1_parse_rule_book_example() -> None:
    """R1's own example: `"AS AS 10h ♠K rj"`."""
    assert format_cards(parse_cards("AS AS 10h ♠K rj")) == "AS AS 10H KS RJ"


@pytest.mark.parametrize("text", ["as", "As", "aS", "AS", " AS ", "♠a", "a♠", "A♠"])
def test_r1_parse_is_case_insensitive_and_takes_symbols(text: str) -> None:
    assert parse_cards(text) == [Card(Rank.ACE, Suit.SPADES)]


@pytest.mark.parametrize("text", ["10H", "10h", "TH", "th", "Th", "♥10", "10♥", "♥T", "t♥"])
def test_r1_ten_written_10_or_t(text: str) -> None:
    assert parse_cards(text) == [Card(Rank.TEN, Suit.HEARTS)]


@pytest.mark.parametrize(
    ("symbol", "suit"),
    [("♠", Suit.SPADES), ("♥", Suit.HEARTS), ("♦", Suit.DIAMONDS), ("♣", Suit.CLUBS)],
)
def test_r1_suit_symbols_before_or_after(symbol: str, suit: Suit) -> None:
    for text in (f"{symbol}K", f"K{symbol}", f"{symbol}k", f"{symbol}10", f"10{symbol}"):
        (card,) = parse_cards(text)
        assert card.suit is suit
    assert Suit.parse(symbol) is suit
    assert Suit.parse(suit.value.lower()) is suit


@pytest.mark.parametrize(("text", "joker"), [("RJ", RJ), ("rj", RJ), ("Rj", RJ), ("BJ", BJ),
                                             ("bj", BJ), ("bJ", BJ)])
def test_r1_jokers_rj_bj(text: str, joker: Card) -> None:
    (card,) = parse_cards(text)
    assert card == joker and card.suit is None and card.rank.is_joker


def test_r1_red_joker_is_big_black_is_small() -> None:
    assert RJ.rank == Rank.RED_JOKER and BJ.rank == Rank.BLACK_JOKER
    assert Rank.RED_JOKER > Rank.BLACK_JOKER > Rank.ACE


@pytest.mark.parametrize(
    "text",
    ["AS,KS,QS", "AS, KS, QS", "AS  KS\tQS", "AS,KS QS", " AS KS QS ", "AS KS QS,", "\nAS\nKS QS"],
)
def test_r1_commas_or_spaces(text: str) -> None:
    assert format_cards(parse_cards(text)) == "AS KS QS"


def test_r1_empty_text_is_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards("  , ") == []


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("AS XX KS", "XX"),
        ("1S", "1S"),
        ("11H", "11H"),
        ("AS ZS", "ZS"),
        ("AX", "AX"),
        ("10", "10"),
        ("S", "S"),
        ("♠", "♠"),
        ("RJS", "RJS"),
        ("JR", "JR"),
        ("AS;KS", "AS;KS"),
        ("AS KS 1H 0H", "1H"),  # the first bad token is named
        ("A S", "A"),
    ],
)
def test_r1_invalid_notation_names_the_bad_token(text: str, bad: str) -> None:
    with pytest.raises(InvalidNotation) as info:
        parse_cards(text)
    assert info.value.token == bad
    assert bad in str(info.value)


def test_r1_invalid_notation_is_a_value_error_and_tractor_error() -> None:
    with pytest.raises(ValueError):
        parse_cards("QQ")
    assert issubclass(InvalidNotation, ValueError)
    assert issubclass(InvalidNotation, TractorError)


def test_r1_rank_parse() -> None:
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("q") is Rank.QUEEN
    assert Rank.parse("A") is Rank.ACE
    assert Rank.parse("2") is Rank.TWO
    for bad in ("1", "11", "X", "", "RJ"):
        with pytest.raises(InvalidNotation):
            Rank.parse(bad)


def test_r1_trump_parse() -> None:
    assert Trump.parse("4D") == Trump(Rank.FOUR, Suit.DIAMONDS)
    assert Trump.parse("4nt") == Trump(Rank.FOUR, None)
    assert Trump.parse("10♠") == Trump(Rank.TEN, Suit.SPADES)
    assert Trump.parse("AH") == Trump(Rank.ACE, Suit.HEARTS)
    assert Trump.parse("10NT") == Trump(Rank.TEN, None)
    for bad in ("", "D", "NT", "4X", "1D", "RJD"):
        with pytest.raises(InvalidNotation):
            Trump.parse(bad)


# ---------------------------------------------------------------- formatting


def test_r1_format_round_trip_every_card() -> None:
    assert len(DISTINCT) == 54
    for card in DISTINCT:
        text = str(card)
        assert parse_cards(text) == [card]
        assert parse_cards(text.lower()) == [card]
        assert parse_cards(card.pretty) == [card]
        assert Card.parse(text) == card
        assert eval(repr(card), {"Card": Card}) == card  # repr reads back
    whole = format_cards(DISTINCT)
    assert parse_cards(whole) == DISTINCT
    assert format_cards(parse_cards(whole)) == whole


def test_r1_format_is_canonical_notation() -> None:
    assert format_cards(cards("th ♠k rj bj 2c")) == "10H KS RJ BJ 2C"
    assert format_cards([]) == ""


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DISTINCT), max_size=30), st.sampled_from([" ", ",", ", "]))
def test_r1_property_parse_format_round_trip(hand: list[Card], sep: str) -> None:
    text = format_cards(hand)
    assert parse_cards(text) == hand
    assert parse_cards(sep.join(str(c).lower() for c in hand)) == hand
    assert parse_cards(" ".join(c.pretty for c in hand)) == hand
    assert format_cards(parse_cards(text)) == text


# ---------------------------------------------------------------- the pack


def test_r1_deck_has_108_cards_every_card_twice() -> None:
    deck = full_deck()
    assert len(deck) == 108
    counts = Counter(deck)
    assert len(counts) == 54
    assert set(counts.values()) == {2}
    assert counts[RJ] == 2 and counts[BJ] == 2
    assert sum(1 for c in deck if c.rank.is_joker) == 4
    for suit in Suit:
        assert sum(1 for c in deck if c.suit is suit) == 26


def test_r1_two_copies_are_equal_and_hash_equal() -> None:
    a, b = cards("QH QH")
    assert a == b and hash(a) == hash(b)
    assert cards("QH") != cards("QD")


def test_r1_only_jokers_have_no_suit() -> None:
    with pytest.raises(ValueError):
        Card(Rank.ACE, None)
    with pytest.raises(ValueError):
        Card(Rank.RED_JOKER, Suit.SPADES)


def test_r1_point_cards_and_200_in_the_pack() -> None:
    for card in DISTINCT:
        expected = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}.get(card.rank, 0)
        assert card.points == expected, card
    assert card_points(full_deck()) == 200
    assert card_points(cards("5S 10H KD KD AS RJ")) == 35
    assert card_points([]) == 0
