"""Finding Friends scoring and levels (F5), next starter and match end (F6), including the
worked examples of docs/rules.md."""

from __future__ import annotations

from dataclasses import replace

import pytest
from friends_support import C, F, friends_rules, playing, run

from engine.actions import Play
from engine.cards import Rank
from engine.events import HandSettled, KittyRevealed, MatchWon
from engine.game import Match, Phase
from engine.rules import LevelScoring, MustDefend, RuleSet
from engine.scoring import settle
from engine.variant import find_variant

FRIENDS = find_variant("friends")


def r10_table(points: int) -> tuple[str, int]:
    """R10's table as written for two decks."""
    if points == 0:
        return "declarers", 3
    if points < 40:
        return "declarers", 2
    if points < 80:
        return "declarers", 1
    return "opponents", (points - 80) // 40


@pytest.mark.parametrize("rules", [RuleSet(), friends_rules(4), friends_rules(5),
                                   friends_rules(8, 2)])
def test_f5_two_decks_score_exactly_as_r10(rules: RuleSet) -> None:
    assert all(settle(points, rules) == r10_table(points) for points in range(0, 205, 5))


@pytest.mark.parametrize(("decks", "points", "outcome"), [
    (3, 0, ("declarers", 3)), (3, 55, ("declarers", 2)), (3, 60, ("declarers", 1)),
    (3, 115, ("declarers", 1)), (3, 120, ("opponents", 0)), (3, 175, ("opponents", 0)),
    (3, 180, ("opponents", 1)), (3, 185, ("opponents", 1)), (3, 240, ("opponents", 2)),
    (4, 75, ("declarers", 2)), (4, 80, ("declarers", 1)), (4, 155, ("declarers", 1)),
    (4, 160, ("opponents", 0)), (4, 240, ("opponents", 1)), (4, 400, ("opponents", 3)),
])
def test_f5_the_table_scales_with_the_decks(decks: int, points: int,
                                            outcome: tuple[str, int]) -> None:
    assert settle(points, friends_rules(6, decks)) == outcome


def test_f5_one_level_per_hand_takes_over_at_40_per_deck() -> None:
    rules = friends_rules(6, level_scoring=LevelScoring.ONE_PER_HAND)
    assert settle(115, rules) == ("declarers", 1)
    assert settle(120, rules) == ("opponents", 1)


@pytest.mark.parametrize(("starter", "side", "won", "expected"), [
    (0, (0, 2), True, 2), (0, (0, 2), False, 1), (3, (1, 3), True, 1), (3, (1, 3), False, 0),
])
def test_f6_with_teams_the_next_starter_is_r10s(starter: int, side: tuple[int, ...], won: bool,
                                                expected: int) -> None:
    assert FRIENDS.next_starter(starter, side, 4, won) == expected


def test_f6_next_starter_and_match_winner() -> None:
    assert FRIENDS.next_starter(4, (1, 4), 6, True) == 1  # the next friend after the starter
    assert FRIENDS.next_starter(4, (4,), 6, True) == 4  # alone: the starter again
    assert FRIENDS.next_starter(4, (4, 5), 6, False) == 0  # the next opponent after the starter
    assert FRIENDS.match_winner(3, (), 6) is None
    assert FRIENDS.match_winner(3, (1, 3), 6) == 3  # the starter among them
    assert FRIENDS.match_winner(3, (1, 5), 6) == 5  # else the first after the starter


# ---------------------------------------------------------------- the F5 worked example

SIX = ["4D 4D", "6D 6D", "7D 7D", "8D 8D", "AD AD", "3D 3D"]
KITTY = "5C 10C 2D 3C 4C 6C"
BEFORE = ["5", "3", "7", "2", "K", "4"]


def last_trick(levels: list[str], **options: object) -> Match:
    """Six players, three decks: seat 0 (level 5) called the first A♥ and the second K♣;
    seats 3 and 5 played them. Before the last trick the seats won 60, 55, 50, 60, 20, 40
    points; seat 4 leads A♦ A♦ to the last trick and wins it."""
    match = playing(SIX, "5S", [F("AH", 1), F("KC", 2)], starter=0, kitty=KITTY,
                    rules=friends_rules(6, **options), levels=levels)
    hand = match.hand
    assert hand is not None
    hand = replace(hand, call_seats=(3, 5), points_by_seat=(60, 55, 50, 60, 20, 40),
                   opponent_points=125, turn=4, tricks_played=25)
    return replace(match, hand=hand)


def test_f5_worked_example_six_players_three_decks() -> None:
    """docs/rules.md F5's example, and F6's next starter."""
    match = last_trick(BEFORE)
    assert match.public_view().opponent_points == 125  # seats 1, 2 and 4
    match, events = run(match, [Play((4 + i) % 6, C(SIX[(4 + i) % 6])) for i in range(6)])
    assert KittyRevealed(C(KITTY), 15, 4, 60) in events  # a pair led: ×4, to the opponents
    result = match.hand.result  # type: ignore[union-attr]
    assert result is not None
    assert result.opponent_points == 185 and result.declarer_seats == (0, 3, 5)
    assert (result.side, result.levels_gained) == ("opponents", 1)  # 180–235: take over, +1
    assert [str(r) for r in result.new_levels] == ["5", "4", "8", "2", "A", "4"]
    assert result.next_starter == 1  # the first opponent after seat 0
    assert match.starter == 1 and match.level_of(1) == Rank.FOUR
    settled = [e for e in events if isinstance(e, HandSettled)]
    assert settled[0].levels == tuple(Rank.parse(r) for r in BEFORE)
    assert match.phase is Phase.BETWEEN_HANDS and match.winner is None


def test_f6_a_player_passing_a_wins_the_match() -> None:
    """docs/rules.md F6's example: seats 2 and 4 at A both pass it; seat 2 wins."""
    match = last_trick(["5", "3", "A", "2", "A", "4"])
    match, events = run(match, [Play((4 + i) % 6, C(SIX[(4 + i) % 6])) for i in range(6)])
    assert MatchWon(2) in events  # seats 2 and 4 pass A: seat 2 comes first after seat 0
    assert match.winner == 2 and match.phase is Phase.MATCH_OVER
    assert match.public_view().match_winner == 2


def test_f5_must_defend_holds_each_player_at_its_own_level() -> None:
    match = last_trick(["5", "3", "7", "2", "K", "4"], must_defend=MustDefend.FIVE_TEN_K_A)
    match = replace(match, hand=replace(match.hand, points_by_seat=(0, 155, 50, 0, 20, 40)))
    match, _ = run(match, [Play((4 + i) % 6, C(SIX[(4 + i) % 6])) for i in range(6)])
    result = match.hand.result  # type: ignore[union-attr]
    assert result is not None and result.opponent_points == 225 + 60
    assert result.levels_gained == 2
    # seat 1 at 3 → 5 (stops at the defended 5); seat 2 at 7 → 9; seat 4 at K stays
    # at K: opponents never pass a defended level
    assert [str(r) for r in result.new_levels] == ["5", "5", "9", "2", "K", "4"]


def test_f5_a_friend_passes_its_own_defended_level_when_its_side_wins() -> None:
    """docs/rules.md#f5: the hand is played at the starter's 5; the friend at seat 3 is on
    A and its side wins (60 points, +1), so it passes A and wins the match; with the same
    levels an opponent on A (seat 4) stays at A when the opponents win (test above)."""
    match = last_trick(["5", "3", "7", "A", "K", "4"], must_defend=MustDefend.A)
    match = replace(match, hand=replace(match.hand, points_by_seat=(60, 0, 0, 60, 0, 40),
                                        opponent_points=0))
    match, events = run(match, [Play((4 + i) % 6, C(SIX[(4 + i) % 6])) for i in range(6)])
    result = match.hand.result  # type: ignore[union-attr]
    assert result is not None and (result.side, result.levels_gained) == ("declarers", 1)
    assert MatchWon(3) in events and match.winner == 3
    assert [str(r) for r in result.new_levels] == ["6", "3", "7", "A", "K", "5"]
