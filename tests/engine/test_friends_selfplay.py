"""Finding Friends properties for every table (players 4–8, decks 2–4), by seeded random
self-play: every card exactly D times at every step, points adding to 100·D, the sides and
levels of F4–F6, deterministic replay from the serialized action log; and the CLIs.

`make test` plays a few hands per table; `make soak` (`-m slow`) thousands."""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stdout

import pytest
from friends_support import friends_rules, friends_steps, pack
from test_game_support import card_census

from engine.actions import StartHand, action_from_dict
from engine.cards import card_points
from engine.deal import deal_shape
from engine.events import FriendRevealed, HandSettled
from engine.game import Match, Phase
from engine.rules import RuleSet
from engine.variant import find_variant
from tools import bench_engine as bench
from tools import selfplay

TABLES = [(players, decks) for players in range(4, 9) for decks in (2, 3, 4)]

FRIENDS = find_variant("friends")


def check_hands(hands: int, seed: int, rules: RuleSet) -> int:
    """Play `hands` hands checking every property; the number of hands settled."""
    shape = deal_shape(rules)
    full = pack(shape.decks)
    log: list[dict[str, object]] = []
    first: Match | None = None
    settled = 0
    for before, action, after, events in friends_steps(hands, seed, rules):
        if isinstance(action, StartHand):
            first, log = before, []
        log.append(json.loads(json.dumps(action.to_dict())))
        hand = after.hand
        assert hand is not None
        assert card_census(after) == full  # every card exactly D times (F1)
        assert len(hand.hands) == shape.seats
        for event in events:
            if isinstance(event, FriendRevealed):
                assert hand.call_seats[event.call_index] == event.seat
        if hand.phase is Phase.PLAYING and hand.friend_calls:
            assert len(hand.friend_calls) == shape.friends
            side = FRIENDS.side(hand.starter, len(hand.hands), hand.call_seats)  # type: ignore[arg-type]
            known = sum(p for s, p in enumerate(hand.points_by_seat) if s not in side)
            penalties = sum(f.penalty for f in hand.failed_throws)
            assert hand.opponent_points == max(0, known + penalties)
        if any(isinstance(event, HandSettled) for event in events):
            settled += 1
            result = hand.result
            assert result is not None
            assert sum(hand.points_by_seat) + card_points(hand.kitty) == 100 * shape.decks
            # the floor at 0 comes before the kitty (docs/rules.md#f4): penalties are not
            # carried past 0 into the kitty's points
            final = FRIENDS.side(hand.starter, len(hand.hands),  # type: ignore[arg-type]
                                 hand.call_seats)
            known = sum(p for s, p in enumerate(hand.points_by_seat) if s not in final)
            penalties = sum(f.penalty for f in hand.failed_throws)
            assert result.opponent_points == max(0, known + penalties) + result.kitty_scored
            assert result.declarer_seats == final
            assert len(result.new_levels) == shape.seats
            moved = {s for s in range(shape.seats) if result.new_levels[s] != result.levels[s]}
            winners = set(result.declarer_seats) if result.side == "declarers" \
                else set(range(shape.seats)) - set(result.declarer_seats)
            assert moved <= winners
            assert (result.next_starter in result.declarer_seats) == \
                (result.side == "declarers")
            # the serialized action log replays the hand exactly
            replay = first
            assert replay is not None
            for data in log:
                replay, _ = replay.apply(action_from_dict(data))
            assert replay == after
    return settled


@pytest.mark.parametrize(("players", "decks"), TABLES)
def test_every_table_plays_by_the_rules(players: int, decks: int) -> None:
    assert check_hands(12, players * 10 + decks, friends_rules(players, decks)) == 12


def test_house_rules_in_friends_mode() -> None:
    rules = friends_rules(6, throw_penalty=10, take_backs=True, kitty_multiplier="flat_2",
                          no_bid="reveal_until_level", must_defend="A")
    assert check_hands(6, 3, rules) == 6


@pytest.mark.slow
@pytest.mark.parametrize(("players", "decks"), TABLES)
def test_soak_every_table(players: int, decks: int) -> None:
    assert check_hands(700, players * 100 + decks, friends_rules(players, decks)) == 700


def test_selfplay_cli_plays_friends_deterministically() -> None:
    def out() -> str:
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            selfplay.main(["--mode", "friends", "--players", "6", "--hands", "3",
                           "--seed", "4"])
        return buffer.getvalue()

    text = out()
    assert text == out()
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 3
    assert all(len(line["levels"]) == 6 and len(line["calls"]) == 2 for line in lines)
    assert Counter(len(line["points_by_seat"]) for line in lines) == {6: 3}


def test_selfplay_cli_default_is_teams() -> None:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        selfplay.main(["--hands", "1"])
    assert "calls" not in json.loads(buffer.getvalue())


def test_bench_cli_measures_friends_hands() -> None:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        bench.main(["--mode", "friends", "--players", "7", "--hands", "2"])
    text = buffer.getvalue()
    assert "7 players, 3 decks" in text and "per card played" in text
