"""House rule `level_scoring` (R10, R11, R12): `table` (R10's table, the default) or
`one_per_hand` — the side that wins the hand goes up exactly one level.

The opponents' total is counted as R10 says (trick points, throw penalties, the kitty times
its multiplier when they win the last trick); the threshold stays 80: under 80 the
declarers won the hand (+1), from 80 the opponents won it: they become the declarers as
in R10, and +1. The next starter is R10's. R11 (passing A) and R12 `must_defend` apply to
the one level as to any jump.
"""

from __future__ import annotations

import pytest
from test_game_support import C, playing

from engine import LevelScoring, RuleSet, settle
from engine.actions import Play
from engine.cards import Rank
from engine.events import HandSettled, MatchWon

ONE = RuleSet(level_scoring=LevelScoring.ONE_PER_HAND)


@pytest.mark.parametrize(("points", "table", "one"), [
    (0, ("declarers", 3), ("declarers", 1)),
    (35, ("declarers", 2), ("declarers", 1)),
    (75, ("declarers", 1), ("declarers", 1)),
    (80, ("opponents", 0), ("opponents", 1)),
    (115, ("opponents", 0), ("opponents", 1)),
    (160, ("opponents", 2), ("opponents", 1)),
    (280, ("opponents", 5), ("opponents", 1)),
])
def test_one_level_per_hand_won(points: int, table: tuple[str, int],
                                one: tuple[str, int]) -> None:
    assert settle(points) == settle(points, RuleSet(level_scoring=LevelScoring.TABLE)) == table
    assert settle(points, ONE) == one


def test_the_default_is_r10s_table() -> None:
    assert RuleSet().level_scoring is LevelScoring.TABLE


def last_trick(rules: RuleSet, opponent_points: int, kitty: str, plays: str,
               levels: tuple[str, str] = ("2", "2")) -> tuple[HandSettled, tuple]:
    """The last trick of a hand, seat 0 (a declarer: seats 0 and 2) leading: `plays` are the
    four seats' cards ("3S | AS | 4S | 5S")."""
    cards = [p.strip() for p in plays.split("|")]
    match = playing(cards, "2H", rules=rules, kitty=kitty, opponent_points=opponent_points,
                    levels=levels, tricks_played=24)
    events: tuple = ()
    for seat, card in enumerate(cards):
        match, events = match.apply(Play(seat, C(card)))
    settled = next(e for e in events if isinstance(e, HandSettled))
    return settled, events


NO_POINTS = "2C 3C 4C 6C 7C 8C 9C JC"
DECLARERS_WIN = "3S | 4S | AS | 6S"  # seat 2 wins, no points
OPPONENTS_WIN = "3S | AS | 4S | 5S"  # seat 1 wins the 5♠


def test_declarers_go_up_one_level_even_with_no_points_lost() -> None:
    table, _ = last_trick(RuleSet(), 0, NO_POINTS, DECLARERS_WIN)
    one, _ = last_trick(ONE, 0, NO_POINTS, DECLARERS_WIN)
    assert (table.side, table.levels_gained) == ("declarers", 3)
    assert (one.side, one.levels_gained) == ("declarers", 1)
    assert one.new_levels == (Rank.THREE, Rank.TWO) * 2 and one.next_starter == 2


@pytest.mark.parametrize(("before", "kitty", "table", "one"), [
    # 5♠ in the last trick, the kitty's 5♣ counts ×2: 65 + 5 + 10 = 80, the threshold
    (65, "5C 3C 4C 6C 7C 8C 9C JC", ("opponents", 0), ("opponents", 1)),
    # the same hand without points in the kitty: 70, the declarers hold
    (65, NO_POINTS, ("declarers", 1), ("declarers", 1)),
    # 155 + 5 + 40 (K♣ 10♣ ×2) = 200
    (155, "KC 10C 4C 6C 7C 8C 9C JC", ("opponents", 3), ("opponents", 1)),
])
def test_the_kitty_counts_toward_the_threshold(before: int, kitty: str,
                                               table: tuple[str, int],
                                               one: tuple[str, int]) -> None:
    for rules, expected in ((RuleSet(), table), (ONE, one)):
        settled, _ = last_trick(rules, before, kitty, OPPONENTS_WIN)
        assert (settled.side, settled.levels_gained) == expected
        new_team = 0 if expected[0] == "declarers" else 1
        assert settled.new_levels[new_team] == Rank(Rank.TWO + expected[1])
        assert settled.next_starter == (2 if expected[0] == "declarers" else 1)  # R10


def test_declarers_at_a_win_the_match_with_their_one_level() -> None:
    settled, events = last_trick(ONE, 0, NO_POINTS, DECLARERS_WIN, levels=("A", "2"))
    assert (settled.side, settled.levels_gained) == ("declarers", 1)
    assert MatchWon(0) in events
