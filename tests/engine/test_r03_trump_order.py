"""R3 Trumps and card order: effective suits, strengths, equal off-suit level cards,
no-trump, and "the one played first wins" among equal cards."""

from __future__ import annotations

from itertools import pairwise

import pytest
from tractor_dsl import BJ, RJ, TR, T, cards, ladder

from engine import TRUMPS, Card, Rank, Suit, Trump, trick_winner

ALL_TRUMPS = [Trump(level, suit) for level in Rank if not level.is_joker
              for suit in [*Suit, None]]
DISTINCT = [Card(r, s) for s in Suit for r in Rank if not r.is_joker] + [BJ, RJ]


def test_r3_seed_example_sevens_and_clubs() -> None:
    """Level 7, clubs trump: RJ, BJ, 7♣, other sevens (equal), A♣ K♣ … 8♣ 6♣ … 2♣."""
    trump = T("7C")
    high_to_low = cards("RJ BJ 7C 7S AC KC QC JC 10C 9C 8C 6C 5C 4C 3C 2C")
    strengths = [trump.strength(c) for c in high_to_low]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)  # strictly decreasing
    assert trump.strength(cards("7S")[0]) == trump.strength(cards("7H")[0]) \
        == trump.strength(cards("7D")[0])
    assert all(trump.effective_suit(c) == TRUMPS for c in high_to_low + cards("7H 7D"))


def test_r3_side_suits_ace_high_level_left_out() -> None:
    trump = T("7C")
    spades = cards("AS KS QS JS 10S 9S 8S 6S 5S 4S 3S 2S")
    strengths = [trump.strength(c) for c in spades]
    assert all(a - b == 1 for a, b in pairwise(strengths))  # consecutive: 8 and 6 adjacent
    assert all(trump.effective_suit(c) is Suit.SPADES for c in spades)
    assert trump.effective_suit(cards("7S")[0]) == TRUMPS  # the level card is not a spade


def test_r3_level_card_and_jokers_belong_to_trumps_never_printed_suit() -> None:
    trump = T("2H")
    for card in cards("2S 2H 2D 2C RJ BJ 3H AH"):
        assert trump.is_trump(card)
        assert trump.effective_suit(card) == TRUMPS
    for card in cards("3S AD KC"):
        assert not trump.is_trump(card)
        assert trump.effective_suit(card) == card.suit


def test_r3_no_trump_only_jokers_and_level_cards() -> None:
    trump = T("5NT")
    trumps = [c for c in DISTINCT if trump.is_trump(c)]
    assert sorted(map(str, trumps)) == sorted(["RJ", "BJ", "5S", "5H", "5D", "5C"])
    assert trump.strength(RJ) > trump.strength(BJ) > trump.strength(cards("5S")[0])
    assert len({trump.strength(c) for c in cards("5S 5H 5D 5C")}) == 1  # all four equal
    for suit in Suit:  # all four suits are side suits, A high, level left out
        side = [Card(r, suit) for r in Rank if not r.is_joker and r != Rank.FIVE]
        assert all(trump.effective_suit(c) is suit for c in side)
        assert [trump.strength(c) for c in side] == list(range(12))


@pytest.mark.parametrize("trump", ALL_TRUMPS, ids=str)
def test_r3_engine_order_matches_the_rule_text_for_every_trump(trump: Trump) -> None:
    """Every level × trump suit (and no trump): the engine's effective suit, comparisons and
    adjacency agree with a literal reading of R3 (`tractor_dsl.ladder`)."""
    ref: dict[Card, tuple[object, int]] = {}
    for suit, steps in ladder(trump).items():
        for i, step in enumerate(steps):
            for card in step:
                ref[card] = (suit, i)
    assert len(ref) == 54
    for a in DISTINCT:
        ref_suit = ref[a][0]
        assert trump.effective_suit(a) == (TRUMPS if ref_suit == TR else ref_suit)
        for b in DISTINCT:
            if ref[a][0] != ref[b][0]:
                continue
            da, db = ref[a][1], ref[b][1]
            sa, sb = trump.strength(a), trump.strength(b)
            assert (sa > sb) == (da > db) and (sa == sb) == (da == db), (trump, a, b)
            assert (sa - sb == 1) == (da - db == 1), (trump, a, b)  # tractor adjacency


def test_r3_trump_order_level_4_diamonds() -> None:
    t = T("4D")
    s = {str(c): t.strength(c) for c in cards("RJ BJ 4D 4S 4H 4C AD KD 5D 3D 2D")}
    assert s["RJ"] > s["BJ"] > s["4D"] > s["4S"] == s["4H"] == s["4C"] > s["AD"] > s["KD"]
    assert s["5D"] - s["3D"] == 1 and s["3D"] > s["2D"]


# ---------------------------------------------------------------- first played wins


def test_r3_identical_cards_first_played_wins() -> None:
    assert trick_winner([cards("AS"), cards("AS"), cards("3S"), cards("2S")], T("7H")) == 0
    assert trick_winner([cards("9S"), cards("AS"), cards("AS"), cards("KS")], T("7H")) == 1


def test_r3_equal_off_suit_level_cards_first_played_wins() -> None:
    """Seed example: fives and diamonds trump; 5♣ led, Q♦, 10♦, 5♥: the 5♣ wins."""
    trump = T("5D")
    assert trick_winner([cards("5C"), cards("QD"), cards("10D"), cards("5H")], trump) == 0
    assert trick_winner([cards("3D"), cards("5S"), cards("5H"), cards("5C")], trump) == 1
    # the level card of the trump suit is higher than the off-suit ones
    assert trick_winner([cards("5C"), cards("5H"), cards("5D"), cards("5S")], trump) == 2


def test_r3_no_trump_equal_level_cards_first_played_wins() -> None:
    trump = T("5NT")
    assert trick_winner([cards("5S"), cards("5H"), cards("5D"), cards("5C")], trump) == 0
    assert trick_winner([cards("5S"), cards("5H"), cards("BJ"), cards("RJ")], trump) == 3
    # a side-suit lead is ruffed by a level card (a trump) in no-trump
    assert trick_winner([cards("AS"), cards("5S"), cards("KS"), cards("5H")], trump) == 1


def test_r3_equal_off_suit_level_pairs_first_played_wins() -> None:
    """Seed: two off-suit nine pairs (nines and spades trump): the first played wins."""
    trump = T("9S")
    assert trick_winner([cards("9H 9H"), cards("9D 9D"), cards("3S 3S"), cards("9C 9C")],
                        trump) == 0
    assert trick_winner([cards("AD AD"), cards("9H 9H"), cards("9C 9C"), cards("2D 3D")],
                        trump) == 1
