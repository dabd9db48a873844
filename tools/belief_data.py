"""Labelled positions for the card-location model (issue 30):
`python -m tools.belief_data --seed S --deals N --out FILE.jsonl.gz [--jobs J]`.

Each deal (`tools.arena.deal_setup`) is played once by a pairing drawn from the seed: team A
`expert` or a cheap `ai` (less search), team B `expert`, `greedy` or `ai1`, on a random
team. Before every play, the acting seat's knowledge (built from its `PlayerView` alone)
is written with the truth: every seat's hand and the kitty at that moment. One JSON object
a line (gzip): `deal`, `a`, `b` (the kinds), `a_team`, `seat`, `seen` (`seen_to_dict`),
`hands` and `kitty` (card codes). The same arguments write the same bytes.
`--leave-out KIND` skips the deals where team B is `KIND` (a model trained without it).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import Pool
from typing import Any, TypeVar

from engine.actions import Action, Play, StartHand
from engine.ai import Player, make_player
from engine.ai.context import Seen, Trick
from engine.ai.search import WORK, AiPlayer
from engine.ai.view import seen_of
from engine.cards import Card, card_of_code
from engine.game import Match, Phase
from engine.rules import RuleSet
from engine.trump import Trump
from engine.variant import find_variant
from tools.arena import deal_setup, play_hand

T = TypeVar("T")

TEAMS = find_variant("teams")
"""Data is dealt in the four-player game (two fixed partnerships)."""

A_KINDS = ("expert", "ai-cheap")
B_KINDS = ("expert", "greedy", "ai1")


class CheapAi(AiPlayer):
    """`ai` with an eighth of the search: a partner of the right style at little cost."""

    work = WORK // 8
    max_samples = 16


def player(kind: str, seed: int) -> Player:
    return CheapAi(seed) if kind == "ai-cheap" else make_player(kind, seed)


def pairing(seed: int, index: int) -> tuple[str, str, int]:
    """Deal `index`'s kinds of team A and team B, and A's team."""
    rng = random.Random(f"belief-pairing:{seed}:{index}")
    return rng.choice(A_KINDS), rng.choice(B_KINDS), rng.randrange(2)


def _codes(cards: Sequence[Card]) -> list[int]:
    return [c.code for c in cards]


def _cards(codes: Sequence[int]) -> tuple[Card, ...]:
    return tuple(card_of_code(c) for c in codes)


def _trick(trick: Trick) -> list[Any]:
    return [trick.leader, [_codes(p) for p in trick.plays]]


def seen_to_dict(seen: Seen) -> dict[str, Any]:
    """A JSON-able `Seen` (`seen_from_dict` reads it back)."""
    return {
        "seat": seen.seat, "trump": str(seen.trump), "hand": _codes(seen.hand),
        "starter": seen.starter, "tricks": [_trick(t) for t in seen.tricks],
        "current": None if seen.current is None else _trick(seen.current),
        "kitty": None if seen.kitty is None else _codes(seen.kitty),
        "shown": [[who, _codes(cards)] for who, cards in seen.shown],
        "failed": [[who, _codes(cards)] for who, cards in seen.failed_throws],
        "opp_points": seen.opp_points, "rules": seen.rules.to_dict(),
    }


def seen_from_dict(data: dict[str, Any]) -> Seen:
    def trick(raw: list[Any]) -> Trick:
        return Trick(raw[0], tuple(_cards(p) for p in raw[1]))

    return Seen(
        seat=data["seat"], trump=Trump.parse(data["trump"]), hand=_cards(data["hand"]),
        starter=data["starter"], tricks=tuple(trick(t) for t in data["tricks"]),
        current=None if data["current"] is None else trick(data["current"]),
        kitty=None if data["kitty"] is None else _cards(data["kitty"]),
        shown=tuple((who, _cards(c)) for who, c in data["shown"]),
        failed_throws=tuple((who, _cards(c)) for who, c in data["failed"]),
        opp_points=data["opp_points"], rules=RuleSet.from_dict(data["rules"]),
    )


def positions(actions: Sequence[Action], hand_seed: int, level: Any, starter: int,
              rules: RuleSet) -> Iterator[tuple[int, Seen, list[list[int]], list[int]]]:
    """Before every play of a hand played as `actions`: the acting seat, its `Seen` (from
    its view only), and the truth (each seat's hand, the kitty)."""
    match = Match(rules=rules, levels=(level, level), starter=starter)
    match, _ = match.apply(StartHand(hand_seed))
    for action in actions:
        if isinstance(action, Play) and match.phase is Phase.PLAYING:
            hand = match.hand
            assert hand is not None
            seat = action.seat
            truth = [_codes(h) for h in hand.hands]
            yield seat, seen_of(match.view_for(seat)), truth, _codes(hand.kitty)
        match, _ = match.apply(action)


def deal_lines(args: tuple[int, int, str | None]) -> list[str]:
    """The JSON lines of deal `index` of run `seed` (none if its B kind is left out)."""
    seed, index, leave_out = args
    a, b, a_team = pairing(seed, index)
    if b == leave_out:
        return []
    hand_seed, level, starter = deal_setup(seed, index)
    rules = RuleSet()
    players = [player(a if TEAMS.team_of(s) == a_team else b, seed * 1_000_003 + index * 8 + s)
               for s in range(4)]
    record: list[Action] = []
    play_hand(players, hand_seed, level, starter, rules, a_team, record)
    lines = []
    for seat, seen, hands, kitty in positions(record, hand_seed, level, starter, rules):
        lines.append(json.dumps({"deal": index, "a": a, "b": b, "a_team": a_team,
                                 "seat": seat, "seen": seen_to_dict(seen), "hands": hands,
                                 "kitty": kitty}, separators=(",", ":")))
    return lines


def read(path: str) -> Iterator[dict[str, Any]]:
    """The positions of a file `main` wrote."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.belief_data", description=__doc__)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--start", type=int, default=0, help="first deal index")
    parser.add_argument("--out", required=True, help="output file (.jsonl.gz)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--leave-out", choices=B_KINDS, default=None)
    args = parser.parse_args(argv)
    tasks = [(args.seed, i, args.leave_out) for i in range(args.start,
                                                            args.start + args.deals)]
    count = write_lines(args.out, deal_lines, tasks, args.jobs)
    sys.stderr.write(f"{count} positions from {args.deals} deals\n")
    return 0


def write_lines(path: str, make: Callable[[T], list[str]], tasks: Sequence[T],
                jobs: int) -> int:
    """Write the lines `make` gives for each task (in `jobs` processes, in order) to
    gzipped `path`, the same bytes each run; returns how many."""
    count = 0
    raw = gzip.GzipFile(path, "wb", compresslevel=6, mtime=0)
    with io.TextIOWrapper(raw, encoding="utf-8") as out, Pool(jobs) as pool:
        for lines in pool.imap(make, tasks):
            for line in lines:
                out.write(line + "\n")
            count += len(lines)
    return count


if __name__ == "__main__":
    raise SystemExit(main())
