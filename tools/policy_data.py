"""Labelled plays for the model of how the others play (issue 40):
`python -m tools.policy_data --seed S --deals N --out FILE.jsonl.gz [--jobs J]`.

Each deal (`tools.arena.deal_setup`) is played once by two kinds drawn from the seed among
the sparring pool (`expert`, a cheap `ai`, `control`, `greedy`, `ai1`), team A on a random
team. Every follow (a play after the trick's lead) is written with what the seat saw before
it (`seen`, from its `PlayerView` alone: its hand at that moment and the public history) and
the cards it chose, with the truth (every seat's hand then, the kitty: the sighted expert's
choice is a feature). One JSON object a line (gzip): `deal`, `kind`, `seat`, `seen`
(`tools.belief_data.seen_to_dict`), `play`, `hands`, `kitty` (card codes). The same
arguments write the same bytes. Files belong under /tmp (not in the repository): only the
fitted weights ship.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from engine.actions import Action, Play
from engine.rules import RuleSet
from tools.arena import deal_setup, play_hand
from tools.belief_data import TEAMS, player, positions, seen_to_dict, write_lines

KINDS = ("expert", "ai-cheap", "control", "greedy", "ai1")


def pairing(seed: int, index: int) -> tuple[str, str, int]:
    """Deal `index`'s kinds of team A and team B, and A's team."""
    rng = random.Random(f"policy-pairing:{seed}:{index}")
    return rng.choice(KINDS), rng.choice(KINDS), rng.randrange(2)


def deal_lines(args: tuple[int, int]) -> list[str]:
    """The JSON lines of deal `index` of run `seed`: one per follow."""
    seed, index = args
    a, b, a_team = pairing(seed, index)
    hand_seed, level, starter = deal_setup(seed, index)
    rules = RuleSet()
    kinds = [a if TEAMS.team_of(s) == a_team else b for s in range(4)]
    players = [player(kinds[s], seed * 1_000_003 + index * 8 + s) for s in range(4)]
    record: list[Action] = []
    play_hand(players, hand_seed, level, starter, rules, a_team, record)
    plays = [a for a in record if isinstance(a, Play)]
    lines = []
    moments = positions(record, hand_seed, level, starter, rules)
    for action, (seat, seen, hands, kitty) in zip(plays, moments, strict=False):
        if seen.current is None or not seen.current.plays:
            continue  # a lead
        lines.append(json.dumps({"deal": index, "kind": kinds[seat], "seat": seat,
                                 "seen": seen_to_dict(seen),
                                 "play": [c.code for c in action.cards], "hands": hands,
                                 "kitty": kitty},
                                separators=(",", ":")))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.policy_data", description=__doc__)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--out", required=True, help="output file (.jsonl.gz)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    tasks = [(args.seed, i) for i in range(args.deals)]
    count = write_lines(args.out, deal_lines, tasks, args.jobs)
    sys.stderr.write(f"{count} follows from {args.deals} deals\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
