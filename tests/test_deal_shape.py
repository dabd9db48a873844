"""The deal shapes of docs/rules.md (R1, R5, R6 and Finding Friends)."""

import pytest

from engine.deal import deal_shape
from engine.rules import Mode, RuleSet


def test_teams_is_the_rule_book_deal() -> None:  # R1, R5, R6
    shape = deal_shape(RuleSet())
    assert (shape.seats, shape.decks, shape.hand_size, shape.kitty_size, shape.friends) == \
        (4, 2, 25, 8, 0)
    assert shape.batches == (5, 5, 5, 5, 5)


@pytest.mark.parametrize(("players", "decks", "hand", "kitty", "friends"), [
    (4, 2, 25, 8, 1), (5, 2, 20, 8, 1), (6, 3, 26, 6, 2), (7, 3, 22, 8, 2), (8, 4, 26, 8, 3),
])
def test_friends_default_deals(players: int, decks: int, hand: int, kitty: int,
                               friends: int) -> None:
    shape = deal_shape(RuleSet(mode=Mode.FRIENDS, players=players))
    assert (shape.decks, shape.hand_size, shape.kitty_size, shape.friends) == \
        (decks, hand, kitty, friends)
    assert sum(shape.batches) == hand and max(shape.batches) - min(shape.batches) <= 1


@pytest.mark.parametrize("players", range(4, 9))
@pytest.mark.parametrize("decks", [2, 3, 4])
def test_every_deal_leaves_a_kitty_of_5_to_12(players: int, decks: int) -> None:
    shape = deal_shape(RuleSet(mode=Mode.FRIENDS, players=players, decks=decks))
    assert 5 <= shape.kitty_size <= 12
    assert shape.seats * shape.hand_size + shape.kitty_size == 54 * decks


@pytest.mark.parametrize("changes", [
    {"players": 6}, {"decks": 3}, {"mode": "friends", "players": 9},
    {"mode": "friends", "players": 3}, {"mode": "friends", "decks": 1},
    {"mode": "friends", "decks": 5},
])
def test_impossible_tables_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        RuleSet().with_changes(**changes)
