"""Perfect-information Monte Carlo: sample hidden hands consistent with everything a seat
knows, play each candidate out with the heuristic in every sample, keep the best on average.

Deterministic given the seed: the number of samples is fixed, never a wall-clock budget.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.ai.context import Knowledge
from engine.ai.policy import rollout
from engine.ai.sim import Sim
from engine.cards import Card, card_points

KITTY = 4  # index of the kitty among the sampled holders (0–3 are seats)


def utility(opp_points: int, declarer: bool) -> float:
    """A seat's value of the opponents' final points: points, plus the level thresholds."""
    value = (opp_points + 15 * (opp_points >= 40) + 35 * (opp_points >= 80)
             + 20 * (opp_points >= 120) + 15 * (opp_points >= 160))
    return -value if declarer else value


def place_known(k: Knowledge) -> tuple[list[int], list[list[Card]], Counter[Card]]:
    """The first step of every sampled deal: room left in each other seat (and, unless this
    seat buried it, the kitty as index 4), the cards a seat is known to hold placed there,
    and the unseen cards still to place."""
    seen = k.seen
    me = seen.seat
    capacity = [0 if s == me else k.left[s] for s in range(4)]
    capacity.append(8 if seen.kitty is None else 0)
    placed: list[list[Card]] = [[] for _ in range(5)]
    pool = Counter(k.unseen)
    for seat in range(4):
        if seat == me:
            continue
        for card, count in k.known[seat].items():
            take = min(count, pool[card], capacity[seat])
            placed[seat] += [card] * take
            pool[card] -= take
            capacity[seat] -= take
    return capacity, placed, pool


def sample_hands(k: Knowledge, rng: random.Random) -> list[list[Card]]:
    """The other seats' hands (and, unless this seat buried it, the kitty as index 4),
    drawn uniformly-ish among deals consistent with the tracking: known cards placed,
    voids respected, no second copy for a seat shown to hold no pair in that suit."""
    capacity, hands, pool = place_known(k)
    cards = [c for c, n in pool.items() for _ in range(n)]
    for attempt in range(30):
        relax = attempt >= 20
        result = _deal(cards, hands, capacity, k, rng, relax)
        if result is not None:
            return result
    raise AssertionError("no consistent deal")  # pragma: no cover - relax always succeeds


def _deal(cards: list[Card], fixed: list[list[Card]], capacity: list[int], k: Knowledge,
          rng: random.Random, relax: bool) -> list[list[Card]] | None:
    trump = k.seen.trump

    def eligible(card: Card, hands: list[list[Card]], room: list[int]) -> list[int]:
        suit = trump.suit_index(card)
        out = []
        for holder in range(5):
            if room[holder] <= 0:
                continue
            if holder < 4 and not relax:
                if suit in k.void[holder]:
                    continue
                if suit in k.no_pairs[holder] and card in hands[holder]:
                    continue
            out.append(holder)
        return out

    hands = [list(h) for h in fixed]
    room = list(capacity)
    order = list(cards)
    rng.shuffle(order)
    static = {c: len(eligible(c, hands, room)) for c in set(order)}
    order.sort(key=lambda c: static[c])
    for card in order:
        options = eligible(card, hands, room)
        if not options:
            if not relax:
                return None
            options = [h for h in range(5) if room[h] > 0]
        weights = [room[h] for h in options]
        holder = rng.choices(options, weights)[0]
        hands[holder].append(card)
        room[holder] -= 1
    return hands


def world(k: Knowledge, rng: random.Random) -> Sim:
    """A full deal sampled for `k.seen.seat`, ready to continue the hand."""
    seen = k.seen
    hands = sample_hands(k, rng)
    hands[seen.seat] = list(seen.hand)
    kitty = seen.kitty if seen.kitty is not None else hands[KITTY]
    current = seen.current
    leader = current.leader if current is not None else seen.seat
    plays = [list(p) for p in current.plays] if current is not None else []
    return Sim(seen.trump, hands[:4], seen.starter, leader, plays, seen.opp_points,
               card_points(kitty), seen.rules)


def best_move(k: Knowledge, candidates: Sequence[Sequence[Card]], default: Sequence[Card],
              samples: int, rng: random.Random, bias: float = 0.5) -> list[Card]:
    """The candidate with the best mean utility over `samples` sampled deals; the
    heuristic's `default` gets `bias` per sample, so noise alone does not overturn it."""
    if len(candidates) <= 1:
        return list(default)
    declarer = k.seen.is_declarer
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        base = world(k, rng)
        for index, move in enumerate(candidates):
            sim = base.copy()
            sim.play(move)
            totals[index] += utility(rollout(sim), declarer)
    default_key = sorted(c.code for c in default)
    best = max(range(len(candidates)), key=lambda i: (
        totals[i] + (bias * samples if sorted(c.code for c in candidates[i]) == default_key
                     else 0.0)))
    return list(candidates[best])
