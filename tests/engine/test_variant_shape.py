"""The variant's answers the bot asks instead of the mode (issue 39): the sides fixed at the
start (`Variant.sides`) and the table shape a mode takes (`Variant.fitted`)."""

from __future__ import annotations

from engine.variant import VARIANTS, Mode


def test_the_sides_fixed_at_the_start() -> None:
    teams, friends = VARIANTS[Mode.TEAMS], VARIANTS[Mode.FRIENDS]
    assert teams.sides(4) == ((0, 2), (1, 3))
    assert friends.sides(5) == ((0,), (1,), (2,), (3,), (4,))
    assert teams.side_levels("abcd") == ["a", "b"]


def test_a_mode_takes_the_shape_it_plays() -> None:
    assert VARIANTS[Mode.TEAMS].fitted(6, 3) == (4, 0)  # four seats, two decks (0: by seats)
    assert VARIANTS[Mode.FRIENDS].fitted(6, 3) == (6, 3)  # any shape it plays: kept
