"""Self-play with random legal agents: `python -m tools.selfplay --hands N --seed S`.

`--mode friends --players N [--decks D]` plays Finding Friends (F1–F6) instead.

Prints one JSON object per hand. A match continues hand to hand; when one is won a new match
starts. The same arguments always print the same bytes. Agents see only `view_for(seat)`.
With `take_backs` on (R12), the driver now and then has the last player take back a play
it still may (`TakeBack`); the agent then plays again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from engine.actions import (
    Action,
    CloseWindow,
    StartHand,
    TakeBack,
)
from engine.ai.random_agent import RandomAgent
from engine.events import Event
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet
from engine.views import player_view

CLOSE_WINDOW_CHANCE = 0.05
"""How often the driver lets a declaration window time out instead of asking a seat."""
TAKE_BACK_CHANCE = 0.1
"""With R12 `take_backs`: how often the last player takes back a play it still may."""


def next_action(match: Match, agents: Sequence[RandomAgent], rng: random.Random) -> Action:
    """The next action of a hand in progress: whoever must act (a random seat still to answer
    while declaring, or a timed-out window now and then). The driver plays the bot's part
    (it knows whose turn it is); the agents see only their own views."""
    hand = match.hand
    assert hand is not None
    if hand.phase is Phase.DECLARING:
        if rng.random() < CLOSE_WINDOW_CHANCE:
            return CloseWindow()
        seat = rng.choice([s for s in range(match.seats) if s not in hand.responded])
    else:
        if match.rules.take_backs and hand.undo is not None and rng.random() < TAKE_BACK_CHANCE:
            return TakeBack(hand.played[-1][0])
        assert hand.turn is not None
        seat = hand.turn
    return agents[seat].act(player_view(match, seat))


Step = tuple[Match, Action, Match, tuple[Event, ...]]
_HAND_OVER = (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)


def play_hand(match: Match, seed: int, agents: Sequence[RandomAgent],
              rng: random.Random) -> Iterator[Step]:
    """Start a hand from `seed` and play it out: yields (before, action, after, events)."""
    action: Action = StartHand(seed)
    while True:
        after, events = match.apply(action)
        yield match, action, after, events
        match = after
        if match.phase in _HAND_OVER:
            return
        action = next_action(match, agents, rng)


def hand_summary(match: Match, match_no: int) -> dict[str, Any]:
    """The JSON-able record of the settled hand of `match`."""
    hand = match.hand
    assert hand is not None and hand.result is not None and hand.trump is not None
    result = hand.result
    variant, seats = match.variant, match.seats
    return {
        "match": match_no, "hand": hand.number, "seed": hand.seed, "deals": hand.deal_no + 1,
        "trump": str(hand.trump), "trump_how": None if hand.trump_how is None
        else hand.trump_how.value,
        "starter": hand.starter, "levels": [str(r) for r in variant.side_levels(result.levels)],
        "declarer_trick_points": hand.declarer_trick_points,
        "opponent_trick_points": hand.opponent_trick_points,
        "throw_penalties": sum(f.penalty for f in hand.failed_throws),
        "failed_throws": len(hand.failed_throws),
        "kitty_points": result.kitty_points, "kitty_multiplier": result.kitty_multiplier,
        "kitty_scored": result.kitty_scored, "opponent_points": result.opponent_points,
        "result": [result.side, result.levels_gained],
        "new_levels": [str(r) for r in variant.side_levels(result.new_levels)],
        "next_starter": result.next_starter,
        "tricks": hand.tricks_played, "match_winner": _winner(result.match_winner, match),
    } | ({} if not variant.calling(seats) else {
        "calls": [call.to_dict() for call in hand.friend_calls],
        "call_seats": list(hand.call_seats), "declarer_seats": list(result.declarer_seats),
        "points_by_seat": list(hand.points_by_seat),
    })


def _winner(seat: int | None, match: Match) -> int | None:
    """The match winner as printed since the first release: the seat, or its fixed team."""
    team = None if seat is None else match.variant.team_of(seat)
    return seat if team is None else team


def run(hands: int, seed: int, rules: RuleSet | None = None) -> Iterator[dict[str, Any]]:
    """Play `hands` hands from `seed` and yield each hand's summary."""
    seeds = random.Random(f"tractor-seeds:{seed}")
    driver = random.Random(f"tractor-driver:{seed}")
    match, match_no = Match.new(rules), 1
    agents = [RandomAgent(random.Random(f"tractor-agent:{seed}:{seat}"))
              for seat in range(match.seats)]
    for _ in range(hands):
        if match.phase is Phase.MATCH_OVER:
            match, match_no = Match.new(rules), match_no + 1
        for step in play_hand(match, seeds.getrandbits(64), agents, driver):
            match = step[2]
        yield hand_summary(match, match_no)


def add_mode_arguments(parser: argparse.ArgumentParser) -> None:
    """`--mode`, `--players`, `--decks` (Finding Friends; shared with `tools.bench_engine`)."""
    parser.add_argument("--mode", choices=[mode.value for mode in Mode], default=None,
                        help="teams (default) or friends")
    parser.add_argument("--players", type=int, default=None, help="seats, 4–8 (friends)")
    parser.add_argument("--decks", type=int, default=None,
                        help="decks, 2–4 (friends; default by players)")


def rules_from_arguments(args: argparse.Namespace) -> RuleSet:
    """The table options of `--rules` with `--mode/--players/--decks` on top."""
    options = json.loads(getattr(args, "rules", "{}"))
    for name in ("mode", "players", "decks"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    return RuleSet.from_dict(options)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.selfplay", description=__doc__)
    parser.add_argument("--hands", type=int, default=10, help="hands to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    parser.add_argument("--rules", default="{}",
                        help='table options as JSON, e.g. \'{"no_bid": "reveal_until_level"}\'')
    add_mode_arguments(parser)
    args = parser.parse_args(argv)
    rules = rules_from_arguments(args)
    for summary in run(args.hands, args.seed, rules):
        sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
