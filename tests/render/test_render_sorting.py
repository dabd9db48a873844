"""Hand order (R3): trumps first in their exact order, then side suits ♠ ♥ ♣ ♦."""

from __future__ import annotations

import pytest

from bot.render.sorting import SUIT_ORDER, hand_groups, sort_hand
from engine.cards import ALL_CARDS, Rank, Suit, format_cards, full_deck, parse_cards
from engine.trump import Trump


def order(text: str, trump: str) -> list[str]:
    t = Trump.parse(trump)
    return [format_cards(g) for g in hand_groups(parse_cards(text), t, t.level)]


def test_trumps_follow_r3_exactly() -> None:
    # Level 5, hearts trump: red jokers, black jokers, 5♥, the other 5s (equal), then A♥…2♥.
    hand = "2H BJ 5C AH 5H RJ 5S KH 5D 3H RJ 10H 5H"
    assert order(hand, "5H") == ["RJ RJ BJ 5H 5H 5S 5C 5D AH KH 10H 3H 2H"]


def test_side_suits_come_after_trumps_in_spade_heart_club_diamond_order() -> None:
    hand = "3D AC 4S KS 2H 9H QD 7C BJ"
    assert order(hand, "2H") == ["BJ 2H 9H", "KS 4S", "AC 7C", "QD 3D"]


def test_side_suits_skip_the_level_rank() -> None:
    groups = order("AS KS QS JS 10S 9S", "10D")
    assert groups == ["10S", "AS KS QS JS 9S"]


def test_no_trump_hand() -> None:
    # Trumps are only the jokers and the four level cards (equal), R3.
    assert order("7H RJ 7S AS BJ 7D 7C KH", "7NT") == ["RJ BJ 7S 7H 7C 7D", "AS", "KH"]


def test_before_trump_is_set_level_cards_and_jokers_come_first() -> None:
    cards = parse_cards("4H RJ 2S AS 4S BJ KD 4C 9C")
    groups = hand_groups(cards, None, Rank.FOUR)
    assert [format_cards(g) for g in groups] == ["RJ BJ 4S 4H 4C", "AS 2S", "9C", "KD"]


@pytest.mark.parametrize("trump", ["2S", "5H", "10D", "AC", "3NT", "KNT"])
def test_every_card_in_order_agrees_with_the_engines_strengths(trump: str) -> None:
    t = Trump.parse(trump)
    groups = hand_groups(full_deck(), t, t.level)
    assert sum(map(len, groups)) == 108
    trumps = groups[0]
    assert all(t.is_trump(c) for c in trumps)
    assert sorted(trumps, key=lambda c: -t.strength(c)) == trumps  # strongest first (stable)
    strengths = [t.strength(c) for c in trumps]
    assert strengths == sorted(strengths, reverse=True)
    side_suits = [g[0].suit for g in groups[1:]]
    assert side_suits == [s for s in SUIT_ORDER if s != t.suit]
    for group in groups[1:]:
        assert len({c.suit for c in group}) == 1 and not any(t.is_trump(c) for c in group)
        values = [t.strength(c) for c in group]
        assert values == sorted(values, reverse=True)


def test_sort_hand_is_the_groups_concatenated() -> None:
    t = Trump.parse("9C")
    cards = list(ALL_CARDS)
    assert sort_hand(cards, t, t.level) == [c for g in hand_groups(cards, t, t.level) for c in g]


def test_suit_order_alternates_colours() -> None:
    assert SUIT_ORDER == (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
