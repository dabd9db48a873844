"""Finding Friends arena: `python -m tools.friends_arena --players 6 --a strong --b random`.

Players: any `make_player` name or level, or `selfish` (a greedy-like baseline: declares
and buries like the rule player, calls at random, plays every trick for itself).

Each seeded deal (cards, starter, levels) is played N + 1 times: with player A in each seat
in turn among B's, and once with B in every seat — the reference for the same cards. Keys
`a_starter_*` / `a_other_*`: A's hands won (its side won) and its side's points per hand
(starter's side: 100·D minus the opponents' points; else the opponents' points) as the
starter and in the other seats; `b_starter_*` / `b_other_*` the same for B at a table of
B's. Also illegal moves (replaced by random legal ones and counted) and CPU time per
decision (p50/p95/max in ms) of each player. `--json` prints one JSON object. The same
arguments give the same result (timings aside).

`--paired BASE`: a paired comparison of A with BASE instead: every deal with A in each seat
among B's and again with BASE in that seat (same cards, same seeds), and the difference in
hands won by A over BASE with its 95% interval (paired by deal).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import process_time
from typing import Any

from engine.actions import Action, StartHand
from engine.ai.friends import RandomFriendsPlayer, SelfishFriendsPlayer
from engine.ai.players import Player
from engine.ai.registry import make_player
from engine.cards import Rank
from engine.deal import deal_shape
from engine.errors import TractorError
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet

LEVELS = [r for r in Rank if not r.is_joker]


@dataclass(slots=True)
class HandOutcome:
    """One hand: the starter, its final side, the opponents' points, illegal moves, and
    decision times per seat (ms of CPU)."""

    starter: int
    side: tuple[int, ...]
    declarers_won: bool
    opponent_points: int
    illegal: int
    times: list[list[float]] = field(default_factory=list)

    def won(self, seat: int) -> bool:
        return (seat in self.side) == self.declarers_won


def friends_rules(players: int, decks: int = 0, **options: Any) -> RuleSet:
    return RuleSet(mode=Mode.FRIENDS, players=players, decks=decks, **options)


def play_hand(match: Match, hand_seed: int, players: Sequence[Player]
              ) -> tuple[Match, HandOutcome]:
    """Play one hand of `match` from `hand_seed`; illegal actions are counted and replaced
    by a random legal one."""
    match, _ = match.apply(StartHand(hand_seed))
    seats = match.seats
    times: list[list[float]] = [[] for _ in range(seats)]
    illegal = 0
    fallback = RandomFriendsPlayer(hand_seed)
    while match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
        public = match.public_view()
        if public.phase is Phase.DECLARING:
            seat = public.awaiting[0]
        else:
            assert public.turn is not None
            seat = public.turn
        view = match.view_for(seat)
        start = process_time()
        action: Action = players[seat].decide(view)
        times[seat].append((process_time() - start) * 1000)
        try:
            match, _ = match.apply(action)
        except TractorError:
            illegal += 1
            match, _ = match.apply(fallback.decide(view))
    hand = match.hand
    assert hand is not None and hand.result is not None and hand.starter is not None
    result = hand.result
    return match, HandOutcome(hand.starter, result.declarer_seats,
                              result.side == "declarers", result.opponent_points, illegal,
                              times)


def deal_setup(seed: int, index: int, seats: int) -> tuple[int, Rank, int]:
    """The fixed deal `index`: hand seed, level (every seat's) and starter."""
    rng = random.Random(f"friends-arena:{seed}:{index}")
    return rng.getrandbits(63), rng.choice(LEVELS), rng.randrange(seats)


@dataclass(slots=True)
class Tally:
    """One player's hands in one kind of seat: hands, hands won, its side's points."""

    hands: int = 0
    won: int = 0
    points: int = 0

    def add(self, outcome: HandOutcome, seat: int, total_points: int) -> None:
        self.hands += 1
        self.won += outcome.won(seat)
        self.points += (total_points - outcome.opponent_points) if seat in outcome.side \
            else outcome.opponent_points


def run(a: str, b: str, players: int, decks: int, deals: int, seed: int) -> dict[str, Any]:
    """Every deal with A in each seat among B's, and once with B everywhere (the
    reference: how B does in the same seats on the same cards)."""
    rules = friends_rules(players, decks)
    shape = deal_shape(rules)
    tallies = {key: Tally() for key in ("a_starter", "a_other", "b_starter", "b_other")}
    illegal = 0
    times: dict[str, list[float]] = {"a": [], "b": []}
    for index in range(deals):
        hand_seed, level, starter = deal_setup(seed, index, players)
        for a_seat in [*range(players), None]:
            names = [a if s == a_seat else b for s in range(players)]
            team = [player(name, seed * 1_000_003 + index * 16 + s)
                    for s, name in enumerate(names)]
            match = Match(rules=rules, levels=(level,) * players, starter=starter)
            _, outcome = play_hand(match, hand_seed, team)
            illegal += outcome.illegal
            for s in range(players):
                times["a" if s == a_seat else "b"] += outcome.times[s]
            seats = [a_seat] if a_seat is not None else list(range(players))
            for seat in seats:
                who = "a" if a_seat is not None else "b"
                tally = tallies[f"{who}_starter" if seat == starter else f"{who}_other"]
                tally.add(outcome, seat, shape.total_points)
    found: dict[str, Any] = {"a": a, "b": b, "players": players, "decks": shape.decks,
                             "deals": deals}
    for key, tally in tallies.items():
        found[f"{key}_won"] = _share(tally.won, tally.hands)
        found[f"{key}_points"] = _share(tally.points, tally.hands)
    found["illegal_moves"] = illegal
    for q, f in (("p50", 0.5), ("p95", 0.95), ("max", 1.0)):
        found[f"{q}_ms"] = {k: round(percentile(v, f), 2) for k, v in times.items()}
    return found


def paired(a: str, base: str, b: str, players: int, decks: int, deals: int,
           seed: int) -> dict[str, Any]:
    """A against `base`, each in every seat in turn among B's on the same deals: hands won
    by each, the difference with its 95% interval (paired by deal), illegal moves and A's
    decision times."""
    rules = friends_rules(players, decks)
    diffs: list[int] = []
    won = {a: 0, base: 0}
    illegal = 0
    times: list[float] = []
    for index in range(deals):
        hand_seed, level, starter = deal_setup(seed, index, players)
        diff = 0
        for a_seat in range(players):
            for name in (a, base):
                names = [name if s == a_seat else b for s in range(players)]
                team = [player(n, seed * 1_000_003 + index * 16 + s)
                        for s, n in enumerate(names)]
                match = Match(rules=rules, levels=(level,) * players, starter=starter)
                _, outcome = play_hand(match, hand_seed, team)
                illegal += outcome.illegal
                result = outcome.won(a_seat)
                won[name] += result
                diff += result if name == a else -result
                if name == a:
                    times += outcome.times[a_seat]
        diffs.append(diff)
    hands = deals * players
    mean = sum(diffs) / deals if deals else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (deals - 1)) if deals > 1 else 0.0
    share = sum(diffs) / hands if hands else 0.0
    half = 1.96 * sd * math.sqrt(deals) / hands if hands else 0.0
    return {"a": a, "base": base, "b": b, "players": players, "deals": deals,
            "hands": hands, "a_won": _share(won[a], hands), "base_won": _share(won[base], hands),
            "a_minus_base": round(share, 4),
            "a_minus_base_ci": [round(share - half, 4), round(share + half, 4)],
            "illegal_moves": illegal,
            "a_ms": {q: round(percentile(times, f), 2)
                     for q, f in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))}}


def player(name: str, seed: int) -> Player:
    """`selfish` (the greedy-like baseline that plays for itself) or any `make_player`
    name or level."""
    return SelfishFriendsPlayer(seed) if name == "selfish" else make_player(name, seed)


def _share(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="strong")
    parser.add_argument("--b", default="random")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--decks", type=int, default=0)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--paired", metavar="BASE",
                        help="compare A with BASE, paired on the same deals and seats")
    args = parser.parse_args(argv)
    if args.paired:
        found = paired(args.a, args.paired, args.b, args.players, args.decks, args.deals,
                       args.seed)
    else:
        found = run(args.a, args.b, args.players, args.decks, args.deals, args.seed)
    if args.json:
        print(json.dumps(found))
        return 0
    for key, value in found.items():
        print(f"{key:<26} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
