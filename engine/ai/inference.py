"""A model of the unseen cards by seat, and deals sampled from it.

Hard facts come from `Knowledge` (voids shown, no pair shown in a suit, cards shown in a
declaration or a failed throw, each seat's count). On top, soft evidence weighs where each
unseen card is likely to be:

- **declarations**: a seat that declared the trump suit is likely long in trumps;
- **the kitty**: the starter buries low side cards, rarely trumps, aces, points or pairs;
- **failed throws**: the unit announced as beatable is beaten by a card another seat holds;
- **points fed or not**: a seat that, following suit, gave points to a trick the other
  side was winning probably had nothing lower in that suit; a seat that discarded instead
  of ruffing a trick worth points probably holds no trumps;
- **who followed a pair with singles** (hard: no pair left in that suit).

`sample_world` draws the other hands (and the kitty) with probability proportional to
each place's room times those weights, respecting every hard fact.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections import Counter
from dataclasses import dataclass, field

from engine.ai.context import Knowledge, Trick
from engine.ai.montecarlo import place_known
from engine.ai.sim import Sim
from engine.cards import ALL_CARDS, Card, card_points
from engine.rules import ThrowRuff
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import decompose_suit

TRUMP = 4
KITTY = 4
"""Index of the kitty among the places a card may be (0–3 are seats)."""


@dataclass(slots=True)
class Belief:
    """Soft weights of each unseen card at each place (seats 0–3, the kitty 4)."""

    k: Knowledge
    weight: list[dict[Card, float]]
    _by_code: list[list[float]] | None = field(default=None, repr=False, compare=False)

    def of(self, place: int, card: Card) -> float:
        return self.weight[place].get(card, 1.0)

    def scale(self, place: int, card: Card, factor: float) -> None:
        self.weight[place][card] = self.of(place, card) * factor
        self._by_code = None

    def by_code(self) -> list[list[float]]:
        """`of(place, card)` for every place and card code (sampling asks it often)."""
        if self._by_code is None:
            self._by_code = [[weights.get(card, 1.0) for card in ALL_CARDS]
                             for weights in self.weight]
        return self._by_code


def _kitty_weight(card: Card, trump: Trump, unseen: Counter[Card]) -> float:
    if trump.is_trump(card):
        return 0.15
    strength = trump.strength(card)
    weight = 1.0
    if strength == 11:
        weight *= 0.15
    elif strength >= 9:
        weight *= 0.6
    if card.points:
        weight *= 0.35
    if unseen[card] >= 2:
        weight *= 0.6
    return weight


def _tricks(k: Knowledge) -> list[Trick]:
    seen = k.seen
    tricks = list(seen.tricks)
    if seen.current is not None and seen.current.plays:
        tricks.append(seen.current)
    return tricks


def infer(k: Knowledge) -> Belief:
    """The belief of `k.seen.seat` about the unseen cards (see the module docstring)."""
    seen = k.seen
    trump = seen.trump
    me = seen.seat
    belief = Belief(k, [{} for _ in range(5)])
    unseen = k.unseen
    if seen.kitty is None:
        for card in unseen:
            belief.weight[KITTY][card] = _kitty_weight(card, trump, unseen)
    trump_cards = [c for c in unseen if trump.suit_index(c) == TRUMP]
    declared = {who for who, _ in seen.shown if who != me}
    if seen.shown:
        last = seen.shown[-1][0]
        if last != me:
            for card in trump_cards:
                belief.scale(last, card, 1.6)
        for who in declared - {last}:
            for card in trump_cards:
                belief.scale(who, card, 1.2)
    for who, attempted in seen.failed_throws:
        suit = trump.suit_index(attempted[0])
        units = decompose_suit(list(attempted), trump)
        low = min(u.top for u in units)
        for card in unseen:
            if trump.suit_index(card) == suit and trump.strength(card) > low:
                for seat in range(4):
                    if seat not in (who, me):
                        belief.scale(seat, card, 1.5)
    for trick in _tricks(k):
        _trick_evidence(belief, trick, trump)
    return belief


def _trick_evidence(belief: Belief, trick: Trick, trump: Trump) -> None:
    throw_ruff = belief.k.seen.rules.throw_ruff
    lead = trick.plays[0]
    suit = trump.suit_index(lead[0])
    me = belief.k.seen.seat
    unseen = belief.k.unseen
    for index in range(1, len(trick.plays)):
        who = trick.seat_of(index)
        if who == me:
            continue
        play = trick.plays[index]
        before = list(trick.plays[:index])
        winning = trick.seat_of(trick_winner(before, trump, throw_ruff))
        opponent_winning = winning % 2 != who % 2
        in_suit = [c for c in play if trump.suit_index(c) == suit]
        points = card_points(play) + card_points(c for p in before for c in p)
        if len(play) == 1 and in_suit and opponent_winning and play[0].points and \
                not _wins(before, play, trump, throw_ruff):
            top = trump.strength(play[0])
            for card in unseen:  # nothing lower left in that suit, probably
                if trump.suit_index(card) == suit and trump.strength(card) < top \
                        and not card.points:
                    belief.scale(who, card, 0.4)
        if suit != TRUMP and not in_suit and opponent_winning and points >= 10 and \
                not any(trump.suit_index(c) == TRUMP for c in play):
            for card in unseen:  # void, and did not ruff a trick worth points
                if trump.suit_index(card) == TRUMP:
                    belief.scale(who, card, 0.3)


def _wins(before: list[tuple[Card, ...]], play: tuple[Card, ...], trump: Trump,
          throw_ruff: ThrowRuff) -> bool:
    return trick_winner([*before, play], trump, throw_ruff) == len(before)


def sample_world(belief: Belief, rng: random.Random) -> Sim:
    """A full deal drawn from `belief`, ready to continue the hand from the current trick."""
    k = belief.k
    seen = k.seen
    me = seen.seat
    capacity, fixed, pool = place_known(k)
    cards = sorted((c for c, n in pool.items() for _ in range(n)), key=lambda c: c.code)
    hands: list[list[Card]] | None = None
    for attempt in range(24):
        hands = _deal(belief, cards, fixed, capacity, rng, relax=attempt >= 16)
        if hands is not None:
            break
    assert hands is not None, "a relaxed deal always succeeds"
    hands[me] = list(seen.hand)
    kitty = seen.kitty if seen.kitty is not None else hands[KITTY]
    current = seen.current
    leader = current.leader if current is not None else me
    plays = [list(p) for p in current.plays] if current is not None else []
    return Sim(seen.trump, hands[:4], seen.starter, leader, plays, seen.opp_points,
               card_points(kitty), seen.rules)


def _deal(belief: Belief, cards: list[Card], fixed: list[list[Card]], capacity: list[int],
          rng: random.Random, relax: bool) -> list[list[Card]] | None:
    """The unseen `cards` dealt to the places with room, each to a place it is allowed in
    (unless `relax`) drawn with chances by room and belief; `None` if a card has nowhere
    to go. The most constrained cards go first (after a shuffle)."""
    k = belief.k
    suits = k.seen.trump.suit_indexes
    hands = [list(h) for h in fixed]
    held = [{c.code for c in h} for h in hands]
    room = list(capacity)
    places = [p for p in range(5) if room[p] > 0]
    weights_of = belief.by_code()
    barred = [set() if relax or p == KITTY else k.void[p] for p in range(5)]
    pairless = [set() if relax or p == KITTY else k.no_pairs[p] for p in range(5)]

    def allowed(code: int, place: int) -> bool:
        suit = suits[code]
        return suit not in barred[place] and not (suit in pairless[place] and code in held[place])

    order = list(cards)
    rng.shuffle(order)
    fits = {code: sum(1 for p in places if allowed(code, p)) for code in {c.code for c in order}}
    order.sort(key=lambda c: fits[c.code])
    draw = rng.random
    for card in order:
        code = card.code
        options = [p for p in places if room[p] > 0 and allowed(code, p)]
        if not options:
            if not relax:
                return None
            options = [p for p in places if room[p] > 0]
        # `rng.choices(options, weights)[0]`, inlined: the same draw from the same numbers
        cumulative: list[float] = []
        total = 0.0
        for p in options:
            weight = room[p] * weights_of[p][code]
            total = weight if not cumulative else total + weight
            cumulative.append(total)
        total += 0.0
        if total <= 0.0 or not math.isfinite(total):
            raise ValueError("weights of a card's places must be positive and finite")
        place = options[bisect(cumulative, draw() * total, 0, len(options) - 1)]
        hands[place].append(card)
        held[place].add(code)
        room[place] -= 1
    return hands
