"""The worked examples of the rule book, docs/rules.md, checked against the engine (each
test names its section: docs/rules.md#r4 and so on). If one fails, the book or the engine
is wrong; the engine's own rule tests (tests/engine/) decide which."""

from __future__ import annotations

import pytest

from engine.cards import ALL_CARDS, Rank, Suit, parse_cards
from engine.deal import deal_shape
from engine.declaring import declaration_error
from engine.follow import follow_error
from engine.game import no_bid_trump
from engine.rules import NoBid, RuleSet, ThrowRuff
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


# ---- the last open readings (issue 38): each settled in the book with an example --------

DIAMONDS_4 = Trump(Rank.FOUR, Suit.DIAMONDS)


def test_r4_the_lowest_suit_off_suit_level_pair_joins_the_tractor() -> None:
    # docs/rules.md#r4: A♦ A♦ 4♠ 4♠ 4♥ 4♥ is the tractor A♦ A♦ 4♥ 4♥ and the pair 4♠ 4♠
    lead = parse_cards("AD AD 4S 4S 4H 4H")
    assert [unit.cards for unit in decompose_suit(lead, DIAMONDS_4)] == [
        tuple(parse_cards("4H 4H AD AD")), tuple(parse_cards("4S 4S"))]
    assert check_throw(lead, [parse_cards("BJ BJ"), [], []], DIAMONDS_4) == parse_cards("4S 4S")
    clubs = parse_cards("AD AD 4S 4S 4H 4H 4C 4C")
    assert decompose_suit(clubs, DIAMONDS_4)[0].cards == tuple(parse_cards("4C 4C AD AD"))
    assert check_throw(clubs, [parse_cards("BJ BJ")], DIAMONDS_4) == parse_cards("4H 4H")


@pytest.mark.parametrize(("lead", "led"), [("4S 4S 4S 4S AD AD 4H 4H", "4S 4S 4S 4S"),
                                           ("4C 4C 4C 4C AD AD 4S 4S", "4C 4C 4C 4C"),
                                           ("4H 4H 4H 4H AD AD 4C 4C", "4H 4H 4H 4H")])
def test_f2_of_equally_small_and_weak_units_of_different_shapes_the_widest_leads(
        lead: str, led: str) -> None:
    # docs/rules.md#f2 (and R7): a quadruple before a tractor of two pairs, whatever the suits
    beater = parse_cards("4D 4D 4D 4D BJ BJ")
    assert check_throw(parse_cards(lead), [beater], DIAMONDS_4) == parse_cards(led)


@pytest.mark.parametrize("trump", [Trump(level, suit) for level in Rank if not level.is_joker
                                   for suit in (*Suit, None)])
def test_f2_two_tractors_of_one_shape_are_never_equally_weak(trump: Trump) -> None:
    # docs/rules.md#f2: a tractor's top shared by several cards (off-suit L pairs) has one
    # card under it (the A of trump), whose copies a play holds in one unit; in no trump no
    # tractor tops at an L card
    trumps = [card for card in ALL_CARDS if trump.is_trump(card)]
    for order in {trump.strength(card) for card in trumps}:
        tops = [card for card in trumps if trump.strength(card) == order]
        below = [card for card in trumps if trump.strength(card) == order - 1]
        if len(tops) > 1:
            assert len(below) <= 1, (trump, order)


def test_f2_follow_duties_come_in_order_not_by_count() -> None:
    # docs/rules.md#r8 and #f2: four decks, a triple and two pairs led
    lead = parse_cards("5S 5S 5S 7S 7S 10S 10S")
    hand = parse_cards("9S 9S 9S 9S 3S 4S 6S JS 2C")
    for play in ("9S 9S 9S 3S 4S 6S JS", "9S 9S 9S 9S 3S 4S 6S"):  # by count: only the second
        assert follow_error(hand, lead, parse_cards(play), HEARTS_2) is None


@pytest.mark.parametrize(("points", "result"), [
    (0, ("declarers", 3)), (3, ("declarers", 2)), (39, ("declarers", 2)),
    (78, ("declarers", 1)), (83, ("opponents", 0)), (119, ("opponents", 0)),
    (121, ("opponents", 1))])
def test_r10_totals_between_the_rows(points: int, result: tuple[str, int]) -> None:
    # docs/rules.md#r10: with throw_penalty, each row runs up to the next row's first number
    assert settle(points) == result


def test_house_every_unit_needs_one_placement_against_every_way() -> None:
    # docs/rules.md#house-options, throw_ruff every_unit: ♥4 ♥4 ♥9 ♥9 beats each way of
    # ♥3 ♥3 ♥8 ♥8 with a different placement, so it does not win; ♥10 ♥10 ♥9 ♥9 does
    every = ThrowRuff.EVERY_UNIT
    lead, first = parse_cards("AS AS KS QS"), parse_cards("3H 3H 8H 8H")
    assert trick_winner([lead, first, parse_cards("4H 4H 9H 9H")], HEARTS_2, every) == 1
    assert trick_winner([lead, first, parse_cards("10H 10H 9H 4H")], HEARTS_2, every) == 1
    assert trick_winner([lead, first, parse_cards("10H 10H 9H 9H")], HEARTS_2, every) == 2


def test_r5_a_lone_twin_is_no_reinforcement() -> None:
    # docs/rules.md#r5: the reinforcement is the pair; the twin alone is refused
    standing = (1, parse_cards("2H"))
    assert declaration_error(standing, 1, parse_cards("2H 2H"), Rank.TWO) is None
    alone = declaration_error(standing, 1, parse_cards("2H"), Rank.TWO)
    assert alone is not None and alone.key == "declare.self"
    partner = declaration_error(standing, 3, parse_cards("2H"), Rank.TWO)
    assert partner is not None and partner.key == "declare.too_weak"


def test_r12_reveal_until_level_and_loop_with_must_defend() -> None:
    # docs/rules.md#r12's examples
    kitty = parse_cards("RJ 3H 9S 4C 9D 6C 7H 8H")
    assert no_bid_trump(kitty, Rank.FIVE, NoBid.REVEAL_UNTIL_LEVEL)[1] == Trump(Rank.FIVE,
                                                                                Suit.SPADES)
    loop = RuleSet(match_end="loop", must_defend="A")
    assert advance_level(Rank.KING, 3, True, loop) == (Rank.ACE, False)
    assert advance_level(Rank.ACE, 3, True, loop) == (Rank.FOUR, False)
    assert advance_level(Rank.ACE, 3, False, loop) == (Rank.ACE, False)


@pytest.mark.parametrize(("players", "decks", "shape"), [
    (5, 3, (31, 7, 1, (7, 6, 6, 6, 6))), (7, 2, (14, 10, 2, (3, 3, 3, 3, 2))),
    (4, 4, (52, 8, 1, (11, 11, 10, 10, 10)))])
def test_f1_another_deck_count(players: int, decks: int,
                               shape: tuple[int, int, int, tuple[int, ...]]) -> None:
    # docs/rules.md#f1: friends by players only; batches as equal as can be, larger first
    got = deal_shape(RuleSet.from_dict({"mode": "friends", "players": players,
                                        "decks": decks}))
    assert (got.hand_size, got.kitty_size, got.friends, got.batches) == shape
