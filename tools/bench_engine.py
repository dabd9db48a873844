"""Micro-benchmarks of the rules core and whole hands: `python -m tools.bench_engine`.

Per-call median and p99 of `decompose`, `follow_error` (25-card hands, throw leads
included), `check_throw` and `trick_winner` on random positions, then random-agent hands
per second (declaring, burying and throws included) and the state machine alone (replaying
the recorded actions). Hands per second are measured in process CPU time, so a busy machine
does not distort them much.

`--mode friends --players N [--decks D]` measures Finding Friends hands only (F1–F6), with
the time per card played, to compare tables of different sizes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from timeit import default_timer as clock  # engine/ has no clocks; the bench measures them

from engine.actions import Action
from engine.ai.random_agent import RandomAgent, random_lead
from engine.cards import Card, Rank, Suit, full_deck
from engine.deal import deal_shape
from engine.follow import follow_error, random_legal_follow
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet
from engine.throw import check_throw
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import decompose
from tools.selfplay import add_mode_arguments, play_hand, rules_from_arguments

LEVELS = list(range(2, 15))


@dataclass(frozen=True, slots=True)
class Position:
    """Four 25-card hands, a lead from the first (sometimes a throw) and legal follows."""

    trump: Trump
    hands: tuple[tuple[Card, ...], ...]
    lead: tuple[Card, ...]
    follows: tuple[tuple[Card, ...], ...]


def positions(count: int, seed: int) -> list[Position]:
    """`count` random positions from `seed`."""
    rng = random.Random(f"tractor-bench:{seed}")
    found = []
    for _ in range(count):
        trump = Trump(Rank(rng.choice(LEVELS)), rng.choice([*Suit, None]))
        deck = full_deck()
        rng.shuffle(deck)
        hands = tuple(tuple(deck[i * 25:(i + 1) * 25]) for i in range(4))
        lead = tuple(random_lead(hands[0], trump, rng, throw_chance=0.4))
        follows = tuple(tuple(random_legal_follow(h, lead, trump, rng)) for h in hands[1:])
        found.append(Position(trump, hands, lead, follows))
    return found


def time_calls(calls: Sequence[Callable[[], object]], repeat: int = 3) -> list[float]:
    """Per-call times in µs (the best of `repeat` runs of each call)."""
    times = []
    for call in calls:
        best = float("inf")
        for _ in range(repeat):
            start = clock()
            call()
            best = min(best, clock() - start)
        times.append(best * 1e6)
    return times


def _summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"{name:<34} median {statistics.median(ordered):8.1f} µs   p99 {p99:8.1f} µs"
            f"   (n={len(ordered)})")


def _cpu() -> float:
    times = os.times()
    return times.user + times.system


def hands_per_second(hands: int, seed: int,
                     rules: RuleSet | None = None) -> tuple[float, float, float]:
    """(random-agent hands/s, state-machine-only hands/s, actions per hand), CPU time."""
    match = Match.new(rules)
    agents = [RandomAgent(random.Random(f"bench-agent:{seed}:{s}")) for s in range(match.seats)]
    driver = random.Random(f"bench-driver:{seed}")
    seeds = random.Random(f"bench-seeds:{seed}")
    games: list[tuple[Match, list[Action]]] = []
    start = _cpu()
    for _ in range(hands):
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        first, actions = match, []
        for step in play_hand(first, seeds.getrandbits(64), agents, driver):
            actions.append(step[1])
            match = step[2]
        games.append((first, actions))
    played = _cpu() - start
    start = _cpu()
    for first, actions in games:
        state = first
        for action in actions:
            state, _ = state.apply(action)
    replayed = _cpu() - start
    per_hand = sum(len(a) for _, a in games) / hands
    return hands / max(played, 1e-9), hands / max(replayed, 1e-9), per_hand


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_engine", description=__doc__)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    add_mode_arguments(parser)
    args = parser.parse_args(argv)
    rules = rules_from_arguments(args)
    if rules.mode is Mode.FRIENDS:
        return _friends(args.hands, args.seed, rules)
    found = positions(args.positions, args.seed)
    throws = sum(1 for p in found if len(decompose(p.lead, p.trump)) > 1)
    print(f"{len(found)} positions, {throws} with a throw lead")
    print(_summary("decompose (25-card hand)", time_calls(
        [partial(decompose, p.hands[0], p.trump) for p in found])))
    print(_summary("follow_error (25-card hand)", time_calls(
        [partial(follow_error, p.hands[i + 1], p.lead, p.follows[i], p.trump)
         for p in found for i in range(3)])))
    print(_summary("check_throw (3 × 25-card hands)", time_calls(
        [partial(check_throw, p.lead, p.hands[1:], p.trump) for p in found])))
    print(_summary("trick_winner (4 plays)", time_calls(
        [partial(trick_winner, [p.lead, *p.follows], p.trump) for p in found])))
    agents_rate, machine_rate, actions = hands_per_second(args.hands, args.seed)
    print(f"{'random-agent hands':<34} {agents_rate:8.0f} hands/s (CPU, {args.hands} hands, "
          f"{actions:.0f} actions/hand)")
    print(f"{'state machine only (replay)':<34} {machine_rate:8.0f} hands/s")
    print(f"{'per card played (random agents)':<34} {_per_card(agents_rate, rules):8.1f} µs")
    return 0


def _per_card(rate: float, rules: RuleSet) -> float:
    """µs per card played at `rate` hands/s (every dealt card is played once)."""
    shape = deal_shape(rules)
    return 1e6 / max(rate * shape.seats * shape.hand_size, 1e-9)


def _friends(hands: int, seed: int, rules: RuleSet) -> int:
    """Whole Finding Friends hands per second, and per card played."""
    shape = deal_shape(rules)
    agents_rate, machine_rate, actions = hands_per_second(hands, seed, rules)
    print(f"friends: {shape.seats} players, {shape.decks} decks, {shape.hand_size} cards "
          f"each, kitty {shape.kitty_size}, {shape.friends} friend(s)")
    print(f"{'random-agent hands':<34} {agents_rate:8.0f} hands/s (CPU, {hands} hands, "
          f"{actions:.0f} actions/hand)")
    print(f"{'state machine only (replay)':<34} {machine_rate:8.0f} hands/s")
    print(f"{'per card played (random agents)':<34} {_per_card(agents_rate, rules):8.1f} µs")
    print(f"{'per card played (state machine)':<34} {_per_card(machine_rate, rules):8.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
