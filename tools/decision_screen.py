"""Decision screen for variants of `ai`, cheaper than the arena to tell them apart:
`python -m tools.decision_screen --base ai3 --try ai-others ai-others-light --b ai1
--deals N --seed S --log FILE` (then `--summary FILE`).

Each deal (`tools.arena.deal_setup`) is played once, team A (on team `index % 2`) by
`--path` (default `expert`: the rules `ai` departs from only when its search is clear)
against `--b`. At every play of a seat of A, `--base` and each variant choose from that
seat's view (fresh players, seeded by the position). Where the choices differ, each distinct
choice is played on to the hand's end in the true deal by the same players (A's `--path`,
B's `--b`) and valued for the seat: the search's `utility` (points of the opponents, with
the level thresholds) and whether A's team won the hand. A variant's gain at a position is
its choice's value minus the base's (0 where they agree); a deal's gain is the sum over its
positions, and the summary gives the mean a deal with its 95% interval over deals. Only the
rest of one hand from each differing decision adds noise (not the whole hand twice, as in
the arena), and every variant shares the base's positions. It measures decisions, not
play: a decision judged by one play-out against these players.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from time import process_time
from typing import Any

from engine.actions import Action, Play, StartHand
from engine.ai import Player, make_player
from engine.ai.expert import cards_key
from engine.ai.search import utility
from engine.game import Match, Phase
from engine.rules import RuleSet
from tools.arena import deal_setup, percentile, play_hand, play_on, team_of


def screen_deal(base: str, tries: Sequence[str], path: str, b: str, seed: int,
                index: int) -> dict[str, Any]:
    """Deal `index`'s record: positions, and for each variant the differing decisions and
    the summed gains in utility and in hands won; CPU a decision (ms) by player."""
    hand_seed, level, starter = deal_setup(seed, index)
    a_team = index % 2
    rules = RuleSet()
    players: list[Player] = [
        make_player(path if team_of(s) == a_team else b, seed * 1_000_003 + index * 8 + s)
        for s in range(4)]
    record: list[Action] = []
    play_hand(players, hand_seed, level, starter, rules, a_team, record)
    match = Match(rules=rules, levels=(level, level), starter=starter)
    match, _ = match.apply(StartHand(hand_seed))
    names = [base, *tries]
    ms: dict[str, list[float]] = {name: [] for name in names}
    differ = dict.fromkeys(tries, 0)
    gain = dict.fromkeys(tries, 0.0)
    wins = dict.fromkeys(tries, 0)
    count = 0
    for action in record:
        if (isinstance(action, Play) and match.phase is Phase.PLAYING
                and team_of(action.seat) == a_team):
            seat = action.seat
            view = match.view_for(seat)
            choices: dict[str, tuple[Any, ...]] = {}
            for name in names:
                player = make_player(name, seed * 1_000_003 + index * 64 + count)
                start = process_time()
                chosen = player.decide(view)
                ms[name].append((process_time() - start) * 1000)
                assert isinstance(chosen, Play)
                choices[name] = chosen.cards
            count += 1
            values: dict[tuple[int, ...], tuple[float, int]] = {}
            if len({cards_key(c) for c in choices.values()}) > 1:
                for cards in choices.values():
                    key = cards_key(cards)
                    if key not in values:
                        after, _ = match.apply(Play(seat, cards))
                        hand = play_on(after, players, starter, a_team)
                        declarer = team_of(seat) == hand.declarer_team
                        values[key] = (utility(hand.opponent_points, declarer),
                                       int(hand.a_won))
                home = values[cards_key(choices[base])]
                for name in tries:
                    mine = values[cards_key(choices[name])]
                    differ[name] += cards_key(choices[name]) != cards_key(choices[base])
                    gain[name] += mine[0] - home[0]
                    wins[name] += mine[1] - home[1]
        match, _ = match.apply(action)
    return {"deal": index, "positions": count, "differ": differ, "gain": gain, "wins": wins,
            "ms": ms}


def summarize(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each variant's mean gain a deal (utility, hands won) with 95% intervals over deals,
    differing decisions, and CPU a decision (p50, p95, max in ms) of every player."""
    out: dict[str, Any] = {"deals": len(lines),
                           "positions": sum(line["positions"] for line in lines)}
    for name in lines[0]["gain"] if lines else ():
        row: dict[str, Any] = {"differ": sum(line["differ"][name] for line in lines)}
        for field in ("gain", "wins"):
            values = [float(line[field][name]) for line in lines]
            n = len(values)
            mean = sum(values) / n
            var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
            half = 1.96 * math.sqrt(var / n)
            row[field] = (round(mean, 3), round(mean - half, 3), round(mean + half, 3))
        out[name] = row
    times: dict[str, list[float]] = {}
    for line in lines:
        for name, values in line["ms"].items():
            times.setdefault(name, []).extend(values)
    out["ms"] = {name: (round(percentile(v, 0.5), 1), round(percentile(v, 0.95), 1),
                        round(max(v), 1)) for name, v in times.items() if v}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="ai3", help="the player variants are judged against")
    parser.add_argument("--try", dest="tries", nargs="+", default=["ai"], help="variants")
    parser.add_argument("--path", default="expert", help="team A's player (the positions)")
    parser.add_argument("--b", default="ai1", help="team B's player")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", help="append each deal's record (JSON lines); resumes")
    parser.add_argument("--summary", metavar="LOG", help="summarise a log and stop")
    args = parser.parse_args(argv)
    if args.summary:
        lines = [json.loads(x) for x in Path(args.summary).read_text().splitlines() if x]
        print(json.dumps(summarize(lines)))
        return 0
    done: list[dict[str, Any]] = []
    if args.log and Path(args.log).exists():
        done = [json.loads(x) for x in Path(args.log).read_text().splitlines() if x]
    have = {line["deal"] for line in done}
    for index in range(args.deals):
        if index in have:
            continue
        line = screen_deal(args.base, args.tries, args.path, args.b, args.seed, index)
        done.append(line)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as out:
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
    print(json.dumps(summarize(done)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
