"""R5 Declaring trump: strengths, overturning, reinforcing, and R12 `no_trump_allowed`."""

from __future__ import annotations

import pytest
from tractor_dsl import cards

from engine import (
    Card,
    Rank,
    RuleSet,
    Suit,
    Trump,
    declaration_error,
    declaration_strength,
    declared_trump,
    legal_declarations,
)

TWO = Rank.TWO
NO_NT = RuleSet(no_trump_allowed=False)


def ok(standing: tuple[int, list[Card]] | None, seat: int, text: str, level: Rank = TWO,
       rules: RuleSet | None = None) -> bool:
    if rules is None:
        return declaration_error(standing, seat, cards(text), level) is None
    return declaration_error(standing, seat, cards(text), level, rules) is None


@pytest.mark.parametrize(
    ("text", "strength"),
    [("2S", 1), ("2C", 1), ("2H 2H", 2), ("2D 2D", 2), ("BJ BJ", 3), ("RJ RJ", 4)],
)
def test_r5_declaration_strengths(text: str, strength: int) -> None:
    assert declaration_strength(cards(text), TWO) == strength


@pytest.mark.parametrize("text", ["3S", "2S 2H", "BJ", "RJ", "RJ BJ", "2S 2S 2H", "AS AS", ""])
def test_r5_not_a_declaration(text: str) -> None:
    assert declaration_strength(cards(text), TWO) is None
    reason = declaration_error(None, 0, cards(text), TWO)
    assert reason is not None and "R5" in reason


def test_r5_level_other_than_two() -> None:
    assert declaration_strength(cards("10H"), Rank.TEN) == 1
    assert declaration_strength(cards("10H 10H"), Rank.TEN) == 2
    assert declaration_strength(cards("2H"), Rank.TEN) is None
    assert ok(None, 1, "10H", Rank.TEN)
    assert not ok(None, 1, "2H", Rank.TEN)


def test_r5_first_declaration_any_strength() -> None:
    for text in ("2S", "2H 2H", "BJ BJ", "RJ RJ"):
        assert ok(None, 3, text)


def test_r5_overturn_needs_strictly_stronger() -> None:
    single = (0, cards("2S"))
    assert not ok(single, 1, "2H")  # a single never overturns a single
    assert ok(single, 1, "2H 2H")
    assert ok(single, 3, "BJ BJ")
    assert ok(single, 1, "RJ RJ")
    pair = (1, cards("2H 2H"))
    assert not ok(pair, 2, "2D 2D")  # equal strength
    assert not ok(pair, 0, "2C")
    assert ok(pair, 2, "BJ BJ")
    assert ok(pair, 0, "RJ RJ")
    black = (2, cards("BJ BJ"))
    assert not ok(black, 1, "2D 2D")
    assert ok(black, 3, "RJ RJ")
    red = (3, cards("RJ RJ"))
    for text in ("2S", "2H 2H", "BJ BJ"):
        assert not ok(red, 0, text)


def test_r5_cannot_overturn_yourself() -> None:
    standing = (0, cards("2S"))
    for text in ("2H 2H", "BJ BJ", "RJ RJ", "2H"):
        reason = declaration_error(standing, 0, cards(text), TWO)
        assert reason is not None and "R5" in reason
    assert not ok((1, cards("BJ BJ")), 1, "RJ RJ")


def test_r5_partner_can_overturn() -> None:
    standing = (0, cards("2S"))
    assert ok(standing, 2, "2H 2H")  # seat 2 is seat 0's partner
    assert ok(standing, 2, "BJ BJ")
    assert ok((1, cards("2C 2C")), 3, "BJ BJ")


def test_r5_reinforce_a_single_with_its_twin() -> None:
    standing = (0, cards("2S"))
    assert ok(standing, 0, "2S 2S")  # both copies: strength 2, same suit
    assert not ok(standing, 0, "2H 2H")  # not the twin: that would be overturning yourself
    reinforced = (0, cards("2S 2S"))
    assert declaration_strength(cards("2S 2S"), TWO) == 2
    assert not ok(reinforced, 1, "2H 2H")  # a level pair cannot overturn it
    assert not ok(reinforced, 2, "2D 2D")
    assert not ok(reinforced, 0, "2S 2S")  # nothing left to reinforce
    assert ok(reinforced, 1, "BJ BJ")  # only a joker pair can
    assert ok(reinforced, 3, "RJ RJ")


def test_r5_other_player_cannot_reinforce_your_single() -> None:
    """The twin shown alone by another seat is just another single: not stronger."""
    standing = (0, cards("2S"))
    assert not ok(standing, 1, "2S")


def test_r12_no_trump_allowed_false_joker_pairs_cannot_declare() -> None:
    for text in ("BJ BJ", "RJ RJ"):
        reason = declaration_error(None, 0, cards(text), TWO, NO_NT)
        assert reason is not None and "R12" in reason
        assert not ok((1, cards("2S")), 2, text, rules=NO_NT)
    assert ok(None, 0, "2S", rules=NO_NT)
    assert ok((1, cards("2S")), 2, "2H 2H", rules=NO_NT)


def test_r5_declared_trump() -> None:
    assert declared_trump(cards("2S"), TWO) == Trump(TWO, Suit.SPADES)
    assert declared_trump(cards("2H 2H"), TWO) == Trump(TWO, Suit.HEARTS)
    assert declared_trump(cards("BJ BJ"), TWO) == Trump(TWO, None)
    assert declared_trump(cards("RJ RJ"), Rank.KING) == Trump(Rank.KING, None)


def test_r5_legal_declarations_from_a_hand() -> None:
    hand = cards("2S 2S 2H BJ BJ RJ AS KD")
    got = [" ".join(map(str, d)) for d in legal_declarations(hand, 0, TWO, None)]
    assert got == ["2S", "2H", "2S 2S", "BJ BJ"]  # weakest first; one RJ is no pair
    over_single = [" ".join(map(str, d))
                   for d in legal_declarations(hand, 0, TWO, (1, cards("2D")))]
    assert over_single == ["2S 2S", "BJ BJ"]
    own = [" ".join(map(str, d)) for d in legal_declarations(hand, 0, TWO, (0, cards("2S")))]
    assert own == ["2S 2S"]  # only the reinforcement
    no_nt = [" ".join(map(str, d)) for d in legal_declarations(hand, 0, TWO, None, NO_NT)]
    assert no_nt == ["2S", "2H", "2S 2S"]
    assert legal_declarations(cards("AS KS BJ"), 0, TWO, None) == []


def test_r5_legal_declarations_all_pass_declaration_error() -> None:
    hand = cards("2S 2S 2H 2H 2D 2C BJ BJ RJ RJ")
    for standing in (None, (0, cards("2S")), (1, cards("2S")), (2, cards("2D 2D")),
                     (3, cards("BJ BJ")), (1, cards("RJ RJ"))):
        for seat in range(4):
            decls = legal_declarations(hand, seat, TWO, standing)
            for d in decls:
                assert declaration_error(standing, seat, list(d), TWO) is None
            # and nothing legal is missed
            for text in ("2S", "2H", "2D", "2C", "2S 2S", "2H 2H", "BJ BJ", "RJ RJ"):
                legal = declaration_error(standing, seat, cards(text), TWO) is None
                assert legal == (tuple(cards(text)) in decls), (standing, seat, text)
