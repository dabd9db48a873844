"""Duplicate-deal arena for computer players: `python -m tools.arena --a ai --b greedy`.

Players: any name or level `engine.ai.make_player` takes (`random`, `greedy`, `expert`,
`ai1`, `ai`; `easy`, `normal`, `strong`; the frozen `ai2`, `ai3` and the sparring `control`,
which tables are not offered).

Each seeded deal (hands, kitty, level and starter fixed) is played twice with the teams
swapped, so card luck cancels. Prints a summary, or with `--json` one JSON object with the
keys `a`, `b`, `deals`, `hands_won_a`, `hands_won_a_ci`, `level_share_a`, `points_swing_a`,
`points_swing_a_ci`, `illegal_moves`, and `p50_ms`, `p95_ms`, `max_ms` as `{"a": …, "b": …}`
(CPU time per decision, in ms).
The same arguments give the same result (timings aside). `--log FILE` writes every deal as
it is played; `--summary FILE` summarises such a log later, also of a run that was stopped, and
`--log FILE --resume` plays only the deals not yet in it (same arguments otherwise).
`--replay INDEX` plays deal INDEX of the run again and prints both hands' tricks side by side
and the first decision where they differ (`--actions`: each hand's actions, from which a
test can rebuild any position of the deal).

Paired comparison, the cheap way to measure a change: `--compare BASE` with `--summary LOG`
(or with a run's `--log`) counts, hand by hand on the same deals, the hands LOG's A won that
BASE's A lost and the reverse, and gives the difference in hands won with its 95% interval
(paired by deal: much tighter than two runs' own intervals). `--side declarers` (or
`opponents`) plays only the hand of each deal in which A's team declares (or defends): half
the work for a change that touches only that side, compared with `--compare` against a full
run of the unchanged player (the hands not played count as they were in BASE). Both halves,
run side by side on two cores, make the whole run again: `--summary DECL.jsonl OPP.jsonl`,
and `--compare DECL.jsonl OPP.jsonl` for a BASE kept that way.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from itertools import zip_longest
from multiprocessing import Pool
from time import process_time
from typing import Any, TextIO

from engine.actions import Action, Pass, StartHand
from engine.ai import Player, make_player
from engine.cards import Rank
from engine.errors import TractorError
from engine.game import Match, Phase
from engine.rules import RuleSet
from engine.variant import find_variant

LEVELS = [r for r in Rank if not r.is_joker]

TEAMS = find_variant("teams")


def team_of(seat: int) -> int:
    """The fixed team of `seat` in the four-player game (0: seats 0 and 2, 1: seats 1, 3)."""
    team = TEAMS.team_of(seat)
    assert team is not None
    return team


@dataclass(slots=True)
class HandRecord:
    """One hand of a deal: which team A sat on, who declared, the outcome."""

    a_team: int
    declarer_team: int
    opponent_points: int
    side: str
    levels_gained: int
    illegal: int
    kitty_scored: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def a_won(self) -> bool:
        a_declared = self.declarer_team == self.a_team
        return (self.side == "declarers") == a_declared

    @property
    def levels_a(self) -> int:
        return self.levels_gained if self.a_won else 0

    @property
    def levels_b(self) -> int:
        return 0 if self.a_won else self.levels_gained


def deal_setup(seed: int, index: int) -> tuple[int, Rank, int]:
    """The fixed deal `index` of an arena run: hand seed, level and starter."""
    rng = random.Random(f"arena-deal:{seed}:{index}")
    return rng.getrandbits(63), rng.choice(LEVELS), rng.randrange(4)


def play_hand(players: Sequence[Player], hand_seed: int, level: Rank, starter: int,
              rules: RuleSet, a_team: int, record: list[Action] | None = None) -> HandRecord:
    """Play one hand from a fixed deal; illegal actions are counted and replaced. With
    `record`, every action applied is appended to it."""
    match = Match(rules=rules, levels=(level, level), starter=starter)
    match, _ = match.apply(StartHand(hand_seed))
    return play_on(match, players, starter, a_team, record)


def play_on(match: Match, players: Sequence[Player], starter: int, a_team: int,
            record: list[Action] | None = None) -> HandRecord:
    """Play `match`'s hand from where it is to its end (as `play_hand`; `starter`: the
    match's first starter, who declares first)."""
    times: dict[str, list[float]] = {"a": [], "b": []}
    illegal = 0
    while match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
        public = match.public_view()
        if public.phase is Phase.DECLARING:
            first = (starter + public.batch) % 4
            seat = min(public.awaiting, key=lambda s: (s - first) % 4)
        else:
            assert public.turn is not None
            seat = public.turn
        view = match.view_for(seat)
        start = process_time()
        action = players[seat].decide(view)
        elapsed = (process_time() - start) * 1000
        side = "a" if team_of(seat) == a_team else "b"
        times[side].append(elapsed)
        try:
            match, _ = match.apply(action)
        except TractorError:
            illegal += 1
            action = _fallback(match, seat, public.phase)
            match, _ = match.apply(action)
        if record is not None:
            record.append(action)
    hand = match.hand
    assert hand is not None and hand.result is not None and hand.starter is not None
    result = hand.result
    return HandRecord(a_team, team_of(hand.starter), result.opponent_points, result.side,
                      result.levels_gained, illegal, result.kitty_scored, times)


def _fallback(match: Match, seat: int, phase: Phase) -> Action:
    if phase is Phase.DECLARING:
        return Pass(seat)
    return make_player("random", 0).decide(match.view_for(seat))


def action_text(action: Action) -> str:
    """An action as `replay` prints it: `P<seat>` (pass), `D<seat> cards` (declare),
    `B<seat> cards` (bury), `L<seat> cards` (lead or follow)."""
    seat = getattr(action, "seat", None)
    cards = getattr(action, "cards", None)
    if cards is None:
        return f"P{seat}"
    kind = {"declare": "D", "bury": "B", "play": "L"}[action.type]
    return f"{kind}{seat} " + " ".join(str(c) for c in cards)


def replay(a: str, b: str, seed: int, index: int, rules: RuleSet | None = None,
           actions: bool = False) -> str:
    """Deal `index` of a run played again, for reading: both hands' tricks side by side
    (A on team 0 on the left, on team 1 on the right, each play marked with its player) and
    the first decision where the two hands differ; with `actions`, each hand's actions in
    the `action_text` form (a position can be rebuilt from them)."""
    hand_seed, level, starter = deal_setup(seed, index)
    lines = [f"deal {index} of seed {seed}: level {level}, starter {starter}"]
    played: list[list[Action]] = []
    for a_team in (0, 1):
        names = [a if team_of(s) == a_team else b for s in range(4)]
        players = [make_player(name, seed * 1_000_003 + index * 8 + s)
                   for s, name in enumerate(names)]
        record: list[Action] = []
        hand = play_hand(players, hand_seed, level, starter, rules or RuleSet(), a_team,
                         record)
        played.append(record)
        lines.append(f"{a} on team {a_team}: {hand.side} win with {hand.opponent_points} "
                     f"opponents' points; {a} {'won' if hand.a_won else 'lost'}")
    columns = [_tricks(record, a if t == 0 else b, b if t == 0 else a)
               for t, record in enumerate(played)]
    for left, right in zip_longest(*columns, fillvalue=""):
        lines.append(f"{left:<64} || {right}")
    for step, (x, y) in enumerate(zip(*played, strict=False)):
        if x != y:
            lines.append(f"first difference, action {step}: {action_text(x)} | "
                         f"{action_text(y)}")
            break
    if actions:
        lines += [json.dumps([action_text(x) for x in record]) for record in played]
    return "\n".join(lines)


def _tricks(record: Sequence[Action], even: str, odd: str) -> list[str]:
    """The burial and each trick of a hand, one line each, plays marked `<seat><player>`."""
    rows: list[str] = []
    trick: list[str] = []
    for action in record:
        text = action_text(action)
        if text[0] == "B":
            rows.append("bury " + text[3:])
        elif text[0] == "L":
            seat = int(text[1])
            trick.append(f"{seat}{(even if seat % 2 == 0 else odd)[:3]}:{text[3:]}")
            if len(trick) == 4:
                rows.append(" | ".join(trick))
                trick = []
    return rows


SIDES = ("both", "declarers", "opponents")
"""Which hands of each deal a run plays: both, or only those where A's team declares or
defends (the first hand of a deal is declared by the starter's team)."""


def a_teams(side: str, starter: int) -> tuple[int, ...]:
    """The teams A sits on in the hands of a deal that `side` plays."""
    if side == "both":
        return (0, 1)
    declaring = team_of(starter)
    return (declaring,) if side == "declarers" else (1 - declaring,)


def play_deal(args: tuple[str, str, int, int, RuleSet, str]) -> list[HandRecord]:
    """The hands of deal `index` that `side` plays: A on team 0, then A on team 1."""
    a, b, seed, index, rules, side = args
    hand_seed, level, starter = deal_setup(seed, index)
    records = []
    for a_team in a_teams(side, starter):
        names = [a if team_of(s) == a_team else b for s in range(4)]
        players = [make_player(name, seed * 1_000_003 + index * 8 + s)
                   for s, name in enumerate(names)]
        records.append(play_hand(players, hand_seed, level, starter, rules, a_team))
    return records


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def compare(base: Sequence[Sequence[HandRecord]],
            cand: Sequence[Sequence[HandRecord]]) -> dict[str, Any]:
    """A paired comparison of two logs of the same run (seed, deals, B): on the deals both
    hold, the hands won by `cand`'s A and lost by `base`'s A (`up`) and the reverse
    (`down`), and the difference in the share of hands won with its 95% interval (paired by
    deal). A hand of `base` that `cand` did not play (`--side`) counts as unchanged."""
    deals = min(len(base), len(cand))
    hands = sum(len(deal) for deal in base[:deals])
    diffs: list[int] = []
    up = down = 0
    for old, new in zip(base[:deals], cand[:deals], strict=True):
        played = {r.a_team: r.a_won for r in new}
        diff = sum(played[r.a_team] - r.a_won for r in old if r.a_team in played)
        up += sum(played.get(r.a_team, r.a_won) > r.a_won for r in old)
        down += sum(played.get(r.a_team, r.a_won) < r.a_won for r in old)
        diffs.append(diff)
    won = sum(r.a_won for deal in base[:deals] for r in deal)
    mean = sum(diffs) / deals if deals else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (deals - 1)) if deals > 1 else 0.0
    share = sum(diffs) / hands if hands else 0.0
    half = 1.96 * sd * math.sqrt(deals) / hands if hands else 0.0
    return {"deals": deals, "hands": hands, "up": up, "down": down,
            "hands_won_base": round(won / hands, 4) if hands else 0.0,
            "hands_won_diff": round(share, 4),
            "hands_won_diff_ci": [round(share - half, 4), round(share + half, 4)]}


def compare_report(result: dict[str, Any]) -> str:
    """A comparison as the text the command prints."""
    low, high = result["hands_won_diff_ci"]
    return (f"paired: {result['deals']} deals, {result['hands']} hands; hands won "
            f"{result['hands_won_base']:.1%} in BASE, {result['hands_won_diff']:+.1%} "
            f"(95% CI {low:+.1%} to {high:+.1%}); {result['up']} hands won that BASE lost, "
            f"{result['down']} lost that BASE won\n")


def swing(deal: Sequence[HandRecord]) -> float:
    """Points taken as opponents by A minus by B, on the same cards."""
    a_opp = next(r.opponent_points for r in deal if r.declarer_team != r.a_team)
    b_opp = next(r.opponent_points for r in deal if r.declarer_team == r.a_team)
    return a_opp - b_opp


def run(a: str, b: str, deals: int, seed: int, jobs: int = 1,
        rules: RuleSet | None = None, log: TextIO | None = None,
        done: Sequence[list[HandRecord]] = (), side: str = "both") -> dict[str, Any]:
    """Play `deals` duplicate deals under `rules` and summarise (see the module docstring).
    With `log`, each deal's two hands are written to it as one JSON line as soon as they are
    played (so a long run that is stopped still leaves its deals: see `summarize`). `done`:
    the first deals, already played (a stopped run resumed): only the rest are played.
    `side`: which hands of each deal to play (`SIDES`)."""
    tasks = [(a, b, seed, index, rules or RuleSet(), side)
             for index in range(len(done), deals)]
    results: list[list[HandRecord]] = list(done)
    with Pool(jobs) if jobs > 1 else nullcontext() as pool:
        played = pool.imap(play_deal, tasks, chunksize=1) if pool else map(play_deal, tasks)
        for deal in played:
            results.append(deal)
            if log is not None:
                log.write(json.dumps([asdict(r) for r in deal]) + "\n")
                log.flush()
    return summarize(a, b, results)


def summarize(a: str, b: str, results: Sequence[Sequence[HandRecord]]) -> dict[str, Any]:
    """The summary of played deals (each: its two `HandRecord`s)."""
    deals = len(results)
    hands = [r for deal in results for r in deal]
    won = sum(r.a_won for r in hands)
    levels_a = sum(r.levels_a for r in hands)
    levels_b = sum(r.levels_b for r in hands)
    swings = [swing(deal) for deal in results if len(deal) == 2]  # both sides played
    mean = sum(swings) / len(swings) if swings else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in swings) / (len(swings) - 1)) \
        if len(swings) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(swings)) if swings else 0.0
    low, high = wilson(won, len(hands))
    times = {side: [t for r in hands for t in r.times[side]] for side in ("a", "b")}
    summary: dict[str, Any] = {
        "a": a, "b": b, "deals": deals, "hands": len(hands),
        "hands_won_a": round(won / len(hands), 4) if hands else 0.0,
        "hands_won_a_ci": [round(low, 4), round(high, 4)],
        "level_share_a": round(levels_a / (levels_a + levels_b), 4)
        if levels_a + levels_b else 0.5,
        "points_swing_a": round(mean, 2),
        "points_swing_a_ci": [round(mean - half, 2), round(mean + half, 2)],
        "illegal_moves": sum(r.illegal for r in hands),
    }
    summary["p50_ms"] = {s: round(percentile(times[s], 0.5), 2) for s in ("a", "b")}
    summary["p95_ms"] = {s: round(percentile(times[s], 0.95), 2) for s in ("a", "b")}
    summary["max_ms"] = {s: round(max(times[s], default=0.0), 2) for s in ("a", "b")}
    return summary


def read_log(path: str) -> list[list[HandRecord]]:
    """The deals of an arena log (`--log`), however far its run got."""
    with open(path, encoding="utf-8") as log:
        return [[HandRecord(**hand) for hand in json.loads(line)] for line in log if line.strip()]


def read_logs(paths: Sequence[str]) -> list[list[HandRecord]]:
    """The deals of several logs of one run joined deal by deal (its `--side declarers` and
    `--side opponents` halves), as far as every log got."""
    logs = [read_log(path) for path in paths]
    return [[hand for log in logs for hand in log[i]] for i in range(min(map(len, logs)))]


def report(summary: dict[str, Any]) -> str:
    """The summary as the text the command prints."""
    a, b = summary["a"], summary["b"]
    low, high = summary["hands_won_a_ci"]
    slow, shigh = summary["points_swing_a_ci"]
    return (
        f"{a} vs {b}: {summary['deals']} deals, {summary['hands']} hands\n"
        f"  hands won by {a}: {summary['hands_won_a']:.1%} (95% CI {low:.1%}–{high:.1%})\n"
        f"  level share of {a}: {summary['level_share_a']:.1%}\n"
        f"  points swing as opponents: {summary['points_swing_a']:+.1f} "
        f"(95% CI {slow:+.1f} to {shigh:+.1f})\n"
        f"  illegal moves: {summary['illegal_moves']}\n"
        + "".join(f"  decision ms {name}: p50 {summary['p50_ms'][side]} p95 "
                  f"{summary['p95_ms'][side]} max {summary['max_ms'][side]}\n"
                  for side, name in (("a", a), ("b", b))))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    names = "random, greedy, expert, ai1, ai (or a level); ai2, ai3, control"
    parser.add_argument("--a", default="ai", help=f"player A: {names}")
    parser.add_argument("--b", default="greedy", help=f"player B: {names}")
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals (2 hands each)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--rules", default="{}",
                        help='table options as JSON, e.g. \'{"follow": "suit_only"}\'')
    parser.add_argument("--log", help="append each deal's hands to this file (JSON lines)")
    parser.add_argument("--resume", action="store_true",
                        help="with --log: the deals already in the log count, play the rest")
    parser.add_argument("--replay", type=int, metavar="INDEX",
                        help="play nothing else: deal INDEX of the run again and print both "
                             "hands side by side (with --actions, their actions too)")
    parser.add_argument("--actions", action="store_true", help="with --replay: the actions")
    parser.add_argument("--summary", metavar="LOG", nargs="+",
                        help="play nothing: summarise the deals of a log written by --log "
                             "(a run that was stopped too), with --a and --b as its players; "
                             "several logs of one run (its --side halves) are joined deal "
                             "by deal")
    parser.add_argument("--side", choices=SIDES, default="both",
                        help="play only the hand of each deal where A's team declares (or "
                             "defends); for --compare against a full run")
    parser.add_argument("--compare", metavar="BASE", nargs="+",
                        help="also compare the deals of --summary's (or --log's) log with "
                             "those of the log BASE, hand by hand (see above); a BASE run "
                             "kept as its --side halves is joined as --summary joins them")
    args = parser.parse_args(argv)
    if args.replay is not None:
        rules = RuleSet.from_dict(json.loads(args.rules))
        sys.stdout.write(replay(args.a, args.b, args.seed, args.replay, rules, args.actions)
                         + "\n")
        return 0
    if args.summary:
        summary = summarize(args.a, args.b, read_logs(args.summary))
    else:
        rules = RuleSet.from_dict(json.loads(args.rules))
        done = read_log(args.log) if args.resume and args.log else []
        with open(args.log, "a", encoding="utf-8") if args.log else nullcontext() as log:
            summary = run(args.a, args.b, args.deals, args.seed, args.jobs, rules, log, done,
                          args.side)
    sys.stdout.write(json.dumps(summary) + "\n" if args.json else report(summary))
    if args.compare and (args.summary or args.log):
        paired = compare(read_logs(args.compare), read_logs(args.summary or [args.log]))
        sys.stdout.write(json.dumps(paired) + "\n" if args.json else compare_report(paired))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
