"""F3 Declaring with three or four decks (docs/rules.md#f3): k copies of a level card or a
joker; more copies beat fewer; among equal counts red jokers > black jokers > level cards;
a seat strengthens its own declaration only with more copies of the same card."""

from __future__ import annotations

import pytest
from tractor_dsl import cards

from engine import Rank, RuleSet, Trump
from engine.declaring import (
    declaration_error,
    declaration_strength,
    declared_trump,
    legal_declarations,
)

TWO = Rank.TWO
SIX = RuleSet.from_dict({"mode": "friends", "players": 6})  # three decks
EIGHT = RuleSet.from_dict({"mode": "friends", "players": 8})  # four decks


def ok(standing: tuple[int, str] | None, seat: int, text: str, rules: RuleSet = SIX) -> bool:
    shown = None if standing is None else (standing[0], cards(standing[1]))
    return declaration_error(shown, seat, cards(text), TWO, rules) is None


@pytest.mark.parametrize(("text", "strength"), [
    ("2S", 1), ("2S 2S", 2), ("BJ BJ", 3), ("RJ RJ", 4),
    ("2S 2S 2S", 5), ("BJ BJ BJ", 6), ("RJ RJ RJ", 7),
    ("2D 2D 2D 2D", 8), ("BJ BJ BJ BJ", 9), ("RJ RJ RJ RJ", 10),
])
def test_f3_strengths(text: str, strength: int) -> None:
    assert declaration_strength(cards(text), TWO) == strength


@pytest.mark.parametrize("text", ["BJ", "2S 2S 2H", "3S 3S 3S", "BJ BJ RJ", "2S 2S 2S 2S 2S"])
def test_f3_not_declarations(text: str) -> None:
    assert declaration_strength(cards(text), TWO) is None
    reason = declaration_error(None, 0, cards(text), TWO, SIX)
    assert reason is not None and reason.key == "declare.shape_many"


def test_f3_the_four_player_wording_is_unchanged() -> None:
    reason = declaration_error(None, 0, cards("2S 2H"), TWO)
    assert reason is not None and reason.key == "declare.shape"


def test_f3_more_copies_beat_fewer() -> None:
    assert ok((1, "RJ RJ"), 2, "2S 2S 2S")
    assert not ok((1, "2S 2S 2S"), 2, "RJ RJ")
    assert ok((1, "RJ RJ RJ"), 2, "2S 2S 2S 2S", EIGHT)


def test_f3_equal_counts_red_over_black_over_level() -> None:
    assert ok((1, "2S 2S 2S"), 2, "BJ BJ BJ")
    assert ok((1, "BJ BJ BJ"), 2, "RJ RJ RJ")
    assert not ok((1, "BJ BJ BJ"), 2, "2S 2S 2S")
    assert not ok((1, "2S 2S 2S"), 2, "2H 2H 2H")  # equal strength never overturns


def test_f3_strengthen_only_with_more_copies_of_the_same_card() -> None:
    assert ok((4, "2S 2S"), 4, "2S 2S 2S")
    assert ok((4, "BJ BJ"), 4, "BJ BJ BJ")
    assert ok((4, "2S"), 4, "2S 2S 2S")
    assert not ok((4, "2S 2S"), 4, "RJ RJ RJ")  # another card: not one's own to overturn
    assert not ok((4, "2S 2S 2S"), 4, "2S 2S")
    reason = declaration_error((4, cards("2S 2S")), 4, cards("2H 2H 2H"), TWO, SIX)
    assert reason is not None and reason.key == "declare.self_many"


def test_f3_example_of_the_rule_book() -> None:
    assert ok(None, 0, "2D")
    assert ok((0, "2D"), 4, "2S 2S")
    assert ok((4, "2S 2S"), 2, "BJ BJ")
    assert ok((2, "BJ BJ"), 4, "2S 2S 2S")
    assert declared_trump(cards("2S 2S 2S"), TWO) == Trump(TWO, cards("2S")[0].suit)
    assert ok((4, "2S 2S 2S"), 4, "2S 2S 2S 2S", EIGHT)
    assert not ok((4, "2S 2S 2S"), 4, "BJ BJ BJ")
    assert ok((4, "2S 2S 2S"), 1, "BJ BJ BJ")
    assert declared_trump(cards("BJ BJ BJ"), TWO) == Trump(TWO, None)


def test_f3_no_trump_off_refuses_every_joker_set() -> None:
    rules = RuleSet.from_dict({"mode": "friends", "players": 6, "no_trump_allowed": False})
    reason = declaration_error(None, 0, cards("RJ RJ RJ"), TWO, rules)
    assert reason is not None and reason.key == "declare.no_trump_off"
    assert ok(None, 0, "2S 2S 2S", rules)


def test_f3_legal_declarations_list_every_count() -> None:
    hand = cards("2S 2S 2S BJ BJ BJ RJ RJ 2H 5C")
    got = [" ".join(map(str, d)) for d in legal_declarations(hand, 0, TWO, None, SIX)]
    assert got == ["2S", "2H", "2S 2S", "BJ BJ", "RJ RJ", "2S 2S 2S", "BJ BJ BJ"]
    mine = [" ".join(map(str, d)) for d in
            legal_declarations(hand, 0, TWO, (0, cards("2S 2S")), SIX)]
    assert mine == ["2S 2S 2S"]
    theirs = [" ".join(map(str, d)) for d in
              legal_declarations(hand, 0, TWO, (1, cards("BJ BJ")), SIX)]
    assert theirs == ["RJ RJ", "2S 2S 2S", "BJ BJ BJ"]
    four = cards("RJ RJ RJ RJ")
    assert [len(d) for d in legal_declarations(four, 0, TWO, None, EIGHT)] == [2, 3, 4]


@pytest.mark.parametrize(("text", "rules", "key"), [
    ("2S 2S 2S 2S", SIX, "declare.copies"), ("RJ RJ RJ RJ", SIX, "declare.copies"),
    ("2S 2S 2S", RuleSet(), "declare.shape"), ("BJ BJ BJ", RuleSet(), "declare.shape"),
])
def test_f3_never_more_copies_than_the_decks_hold(text: str, rules: RuleSet, key: str) -> None:
    """F3: k runs up to D: four identical cards are no declaration with three decks (nor
    three with two), whoever shows them, before the game asks whether they are held."""
    for standing in (None, (1, cards("2H")), (0, cards("2S")) if text[0] == "2" else None):
        reason = declaration_error(standing, 0, cards(text), TWO, rules)
        assert reason is not None and reason.key == key
    if key == "declare.copies":
        assert str(reason) == ("The pack holds 3 copies of each card: show at most 3 identical "
                               "cards (F3)")
    assert ok(None, 0, "2S 2S 2S 2S", EIGHT)
