"""The worked examples of the rule book, docs/rules.md, checked against the engine (each
test names its section: docs/rules.md#r4 and so on). If one fails, the book or the engine
is wrong; the engine's own rule tests (tests/engine/) decide which."""

from __future__ import annotations

import pytest

from engine.cards import Rank, Suit, parse_cards
from engine.follow import follow_error
from engine.rules import RuleSet, ThrowRuff
from engine.scoring import advance_level, kitty_multiplier, settle
from engine.throw import check_throw
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import UnitKind, decompose_suit

HEARTS_2 = Trump(Rank.TWO, Suit.HEARTS)
HEARTS_7 = Trump(Rank.SEVEN, Suit.HEARTS)


def shape(cards: str, trump: Trump) -> list[tuple[UnitKind, int]]:
    return [(unit.kind, len(unit.cards)) for unit in decompose_suit(parse_cards(cards), trump)]


def test_r1_points_and_notation() -> None:
    assert parse_cards("AS as 10h ♠K rj") == parse_cards("A♠ A♠ 10♥ K♠ RJ")
    assert sum(card.points for card in parse_cards("5D 10C KH 3S")) == 25
    assert sum(card.points for card in parse_cards("AS AS QH RJ")) == 0


def test_r3_equal_level_cards_first_played_wins() -> None:
    assert trick_winner([parse_cards(c) for c in ("7C", "7D", "3C", "2C")], HEARTS_7) == 0


@pytest.mark.parametrize("cards", ["AD AD 4S 4S", "4S 4S 4D 4D", "4D 4D BJ BJ", "BJ BJ RJ RJ",
                                   "3S 3S 5S 5S"])
def test_r4_tractors_at_level_4_diamonds(cards: str) -> None:
    assert shape(cards, Trump(Rank.FOUR, Suit.DIAMONDS)) == [(UnitKind.TRACTOR, 4)]


def test_r4_not_tractors_and_one_shape() -> None:
    assert shape("4S 4S 4H 4H", Trump(Rank.FOUR, Suit.DIAMONDS)) == [(UnitKind.PAIR, 2)] * 2
    no_trump = Trump(Rank.FOUR, None)
    assert shape("4C 4C BJ BJ", no_trump) == [(UnitKind.TRACTOR, 4)]
    assert shape("4C 4C 4S 4S", no_trump) == [(UnitKind.PAIR, 2)] * 2
    assert shape("3S 3S 4S 4S 5S 5S", Trump(Rank.NINE, Suit.HEARTS)) == [(UnitKind.TRACTOR, 6)]


def test_r7_throws() -> None:
    stands = check_throw(parse_cards("AS KS KS"),
                         [parse_cards("AS QS QS 3C"), parse_cards("JS JS"), parse_cards("2C")],
                         HEARTS_2)
    assert stands is None
    fails = check_throw(parse_cards("KS QS 9S 9S"),
                        [parse_cards("AS 3C"), parse_cards("10S 10S"), parse_cards("2C")],
                        HEARTS_2)
    assert fails == parse_cards("QS")


@pytest.mark.parametrize("lead", ["2D 2H", "2H 2D"])
def test_r7_equally_small_and_weak_units_lead_the_lowest_suit(lead: str) -> None:
    # docs/rules.md#r7: of equally weak beatable units, the lowest suit in bridge order
    spades_2 = Trump(Rank.TWO, Suit.SPADES)
    others = [parse_cards("2S"), parse_cards("3C"), parse_cards("4C")]
    assert check_throw(parse_cards(lead), others, spades_2) == parse_cards("2D")
    assert check_throw(parse_cards("2S 2C 2H"), others[1:], Trump(Rank.TWO, None)) is None
    assert check_throw(parse_cards("2S 2C 2H 2D"), [parse_cards("BJ")],
                       Trump(Rank.TWO, None)) == parse_cards("2C")


@pytest.mark.parametrize(
    ("hand", "lead", "legal", "illegal"),
    [
        ("5C 5C KC 3C", "8C 8C", "5C 5C", "KC 3C"),
        ("KC 6C 3C 4S", "8C 8C", "KC 3C", "KC 4S"),
        ("KC 4S 5S", "8C 8C", "KC 5S", "4S 5S"),
        ("4D 4D 5D 5D KD KD 3S", "9D 9D 10D 10D", "4D 4D 5D 5D", "KD KD 5D 5D"),
        ("KD KD 7D 3D 6D", "9D 9D 10D 10D", "KD KD 7D 3D", "KD 7D 3D 6D"),
    ],
)
def test_r8_following(hand: str, lead: str, legal: str, illegal: str) -> None:
    cards, led = parse_cards(hand), parse_cards(lead)
    assert follow_error(cards, led, parse_cards(legal), HEARTS_2) is None
    assert follow_error(cards, led, parse_cards(illegal), HEARTS_2) is not None


def test_r9_ruffs() -> None:
    def winner(*plays: str) -> int:
        return trick_winner([parse_cards(play) for play in plays], HEARTS_7)

    assert winner("10C 10C", "AC 3C", "4H 4H", "9H 9H") == 3
    assert winner("10C 10C", "AC 3C", "5H JH", "2C 3C") == 0
    assert winner("AS KS KS", "3H 6H 6H", "4H 8H 8H", "2S 3S 4S") == 2


@pytest.mark.parametrize(("throw_ruff", "first", "later"), [
    ("largest_unit", 1, 2), ("every_unit", 1, 1), ("highest_card", 1, 2)])
def test_f2_largest_unit_with_three_decks_takes_its_unit_anywhere(throw_ruff: str, first: int,
                                                                  later: int) -> None:
    # docs/rules.md#f2: the strongest tractor of two pairs anywhere in the ruff (10♥ 10♥ J♥
    # J♥ out of a triple and a pair), not only the one placed on the throw's tractor
    lead = parse_cards("5S 5S 6S 6S 9S 9S 9S QS QS")
    low = parse_cards("3H 3H 4H 4H 10H 10H 10H JH JH")
    high = parse_cards("6H 6H 7H 7H 8H 8H 8H 5H 5H")
    rule = ThrowRuff(throw_ruff)
    assert trick_winner([lead, low, high], HEARTS_2, rule) == first
    assert trick_winner([lead, high, low], HEARTS_2, rule) == later


def test_r10_the_example_hand() -> None:
    kitty_points = sum(card.points for card in parse_cards("10D 5C"))
    pair = kitty_multiplier(parse_cards("9S 9S"), HEARTS_2)
    single = kitty_multiplier(parse_cards("9S"), HEARTS_2)
    assert settle(65 + kitty_points * pair) == ("opponents", 1)
    assert settle(65 + kitty_points * single) == ("opponents", 0)


def test_r11_and_r12_examples() -> None:
    assert advance_level(Rank.KING, 2, True) == (Rank.ACE, True)
    assert advance_level(Rank.KING, 2, True, RuleSet(must_defend="A")) == (Rank.ACE, False)
    throw = parse_cards("AS KS KS")
    assert kitty_multiplier(throw, HEARTS_2) == 6
    assert kitty_multiplier(throw, HEARTS_2, RuleSet(kitty_multiplier="largest_unit")) == 4
    assert kitty_multiplier(throw, HEARTS_2, RuleSet(kitty_multiplier="flat_2")) == 2
