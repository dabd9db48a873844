"""A learned belief of where the unseen cards are (issue 30): a factored logistic model.

For one seat's `Knowledge`, every unseen card still to place (after the hard facts of
`montecarlo.place_known`) may be at one of four places, relative to the seat: the left
opponent, the partner, the right opponent, the kitty (unless the seat buried it). The
model's chance of place `p` for card `c` is proportional to

    room(p) · allowed(p, c) · exp(d(c) · W[side, p] · h(p, suit of c))

where `allowed` carries the hard facts (a void shown), `d(c)` describes the card in a
canonical frame (trump or side suit, strength by trump order, points, copies), `h(p, s)` is
what the public history says about place `p` and effective suit `s` (cards of `s` played,
followed, led, discarded, ruffs, declarations, points fed), and `W` has one block per
relative place and per side (declaring or defending). With `W = 0` it is the
room-proportional belief. Pure Python at run time (numpy only for fitting,
`python -m tools.belief_fit`); the weights ship as `belief_weights.json`.

`learned_belief(k)` turns the model into the `Belief` that `inference.sample_world` draws
deals from: the same hard facts, the model's factor (tempered) as each place's soft weight.
`ai` (and the frozen `ai3`) draw the search's deals from it (issue 40; docs/belief.md).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.ai.context import Knowledge
from engine.ai.inference import KITTY, Belief
from engine.ai.montecarlo import place_known
from engine.cards import Card, Rank
from engine.matching import pair_counts
from engine.trick import trick_winner

TRUMP = 4
PLACES = 4
"""Relative places: 0 left opponent (seat + 1), 1 partner, 2 right opponent, 3 kitty."""
CARD_FEATURES = 20
PLACE_FEATURES = 17
WEIGHTS_PATH = Path(__file__).with_name("belief_weights.json")
TEMPER = 0.8
"""The power the search's deals take the model's factors to (sharper beliefs do not always
play better: issue 30)."""


def place_seat(me: int, place: int) -> int:
    """The absolute place (seat 0–3, or `KITTY`) of relative `place` for seat `me`."""
    return KITTY if place == 3 else (me + 1 + place) % 4


@dataclass(slots=True)
class Position:
    """The model's inputs for one seat's knowledge: the cards still to place (one entry
    per distinct card, `copies` of it), their descriptors, each relative place's history
    per effective suit, the room of each place and which places each card may be in."""

    side: int
    """0 when the seat declares, 1 when it defends."""
    cards: list[Card]
    copies: list[int]
    suits: list[int]
    d: list[list[float]]
    h: list[list[list[float]]]
    """`h[place][suit]`: the place's features for that effective suit."""
    room: list[int]
    allowed: list[list[bool]]
    """`allowed[i][place]`: card `i` may be at `place` (room left, no void shown)."""


def position(k: Knowledge) -> Position:
    """The model's inputs for `k` (see `Position`)."""
    seen = k.seen
    me = seen.seat
    trump = seen.trump
    capacity, _, pool = place_known(k)
    room = [capacity[place_seat(me, p)] for p in range(PLACES)]
    cards = sorted((c for c, n in pool.items() if n > 0), key=lambda c: c.code)
    suits = [trump.suit_index(c) for c in cards]
    history = _History(k)
    h = [[history.features(place_seat(me, p), s) for s in range(5)] for p in range(PLACES)]
    d = _card_features(k, cards)
    allowed = []
    for suit in suits:
        row = []
        for p in range(PLACES):
            where = place_seat(me, p)
            row.append(room[p] > 0 and (where == KITTY or suit not in k.void[where]))
        allowed.append(row)
    side = 0 if seen.is_declarer else 1
    return Position(side, cards, [pool[c] for c in cards], suits, d, h, room, allowed)


def _card_features(k: Knowledge, cards: list[Card]) -> list[list[float]]:
    seen = k.seen
    trump = seen.trump
    level = trump.level
    mine = Counter(seen.hand)
    if seen.kitty is not None:
        mine.update(seen.kitty)
    played: Counter[Card] = Counter()
    for counter in k.played_by:
        played.update(counter)
    unseen = k.unseen
    strength = trump.strengths
    suit_of = trump.suit_indexes
    by_suit: list[list[int]] = [[] for _ in range(5)]  # strengths of unseen copies
    for card, n in unseen.items():
        by_suit[suit_of[card.code]] += [strength[card.code]] * n
    held = [0] * 5
    for card, n in mine.items():
        held[suit_of[card.code]] += n
    rows = []
    for card in cards:
        suit = suit_of[card.code]
        order = strength[card.code]
        is_trump = suit == TRUMP
        joker = card.suit is None
        is_level = card.rank == level
        plain_trump = is_trump and not joker and not is_level
        top = max(by_suit[suit])
        stronger = sum(1 for s in by_suit[suit] if s > order)
        rows.append([
            1.0,
            float(is_trump),
            float(joker),
            float(is_level),
            float(plain_trump),
            order / 16 if is_trump else order / 11,
            float(not is_trump and order == 11),
            float(not is_trump and order in (9, 10)),
            float(not is_trump and order <= 4),
            float(plain_trump and order >= 9),
            float(card.points == 5),
            float(card.points == 10),
            float(unseen[card] == 2),
            float(played[card] > 0),
            float(mine[card] > 0),
            min(stronger, 8) / 8,
            float(order >= top),
            len(by_suit[suit]) / 20,
            held[suit] / 10,
            float(card.rank == Rank.RED_JOKER),
        ])
    return rows


class _History:
    """Counts from the public history, per seat and effective suit (one pass)."""

    def __init__(self, k: Knowledge) -> None:
        seen = k.seen
        trump = seen.trump
        self.k = k
        self.progress = len(seen.tricks) / 25
        self.starter = seen.starter
        self.played = [[0] * 5 for _ in range(4)]
        self.followed = [[0] * 5 for _ in range(4)]
        self.led = [[0] * 5 for _ in range(4)]
        self.led_pairs = [[0] * 5 for _ in range(4)]
        self.discarded = [[0] * 5 for _ in range(4)]
        self.fed = [[0] * 5 for _ in range(4)]
        self.gave = [[0] * 5 for _ in range(4)]
        self.ruffed = [0] * 4
        self.no_ruff = [0] * 4
        self.declared = [0] * 4
        self.last = seen.shown[-1][0] if seen.shown else -1
        for who, _ in seen.shown:
            self.declared[who] += 1
        tricks = list(seen.tricks)
        if seen.current is not None and seen.current.plays:
            tricks.append(seen.current)
        throw_ruff = seen.rules.throw_ruff
        suit_of = trump.suit_indexes
        for trick in tricks:
            lead = trick.plays[0]
            suit = suit_of[lead[0].code]
            leader = trick.leader
            self.led[leader][suit] += 1
            if any(pair_counts(lead, trump)):
                self.led_pairs[leader][suit] += 1
            self.played[leader][suit] += len(lead)
            for index in range(1, len(trick.plays)):
                who = (leader + index) % 4
                play = trick.plays[index]
                in_suit = 0
                trumps = 0
                for card in play:
                    s = suit_of[card.code]
                    self.played[who][s] += 1
                    if s == suit:
                        in_suit += 1
                    else:
                        self.discarded[who][s] += s != TRUMP
                        trumps += s == TRUMP
                if in_suit == len(play):
                    self.followed[who][suit] += 1
                before = list(trick.plays[:index])
                winning = (leader + trick_winner(before, trump, throw_ruff)) % 4
                points = sum(c.points for p in trick.plays[:index + 1] for c in p)
                opponent_winning = winning % 2 != who % 2
                mine_points = sum(c.points for c in play)
                if opponent_winning and in_suit == len(play) and mine_points:
                    self.fed[who][suit] += 1
                if not opponent_winning and mine_points:
                    self.gave[who][suit] += 1
                if suit != TRUMP and in_suit < len(play):
                    if trumps:
                        self.ruffed[who] += 1
                    elif opponent_winning and points >= 10:
                        self.no_ruff[who] += 1

    def features(self, where: int, suit: int) -> list[float]:
        k = self.k
        if where == KITTY:
            starter = self.starter
            return [1.0, self.played[starter][suit] / 8, self.followed[starter][suit] / 4,
                    self.led[starter][suit] / 4, float(suit in k.void[starter]), 0.0, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0, self.progress, 0.0,
                    self.discarded[starter][suit] / 4, 0.0, 0.0]
        return [
            1.0,
            self.played[where][suit] / 8,
            self.followed[where][suit] / 4,
            self.led[where][suit] / 4,
            len(k.void[where]) / 3,
            float(suit in k.no_pairs[where]),
            float(self.declared[where] > 0),
            float(self.last == where),
            self.fed[where][suit] / 2,
            self.no_ruff[where] / 2,
            self.ruffed[where] / 3,
            k.left[where] / 25,
            self.progress,
            float(self.starter == where),
            self.discarded[where][suit] / 4,
            self.led_pairs[where][suit] / 2,
            self.gave[where][suit] / 2,
        ]


Weights = list[list[list[list[float]]]]
"""`W[side][place][i][j]`: card feature `i` times place feature `j`."""


@cache
def load_weights(path: Path = WEIGHTS_PATH) -> Weights:
    """The shipped weights (`tools.belief_fit` writes them)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    weights: Weights = data["W"]
    if len(weights) != 2 or len(weights[0]) != PLACES or \
            len(weights[0][0]) != CARD_FEATURES or len(weights[0][0][0]) != PLACE_FEATURES:
        raise ValueError(f"{path}: weights of the wrong shape")
    return weights


def scores(pos: Position, weights: Weights) -> list[list[float]]:
    """The model's log-factor of every card at every relative place (room and hard facts
    aside)."""
    blocks = weights[pos.side]
    # v[p][s] = W[p] · h[p][s]: the card-feature weights of place p for suit s
    vectors = [[[sum(w * x for w, x in zip(row, hs, strict=True)) for row in blocks[p]]
                for hs in pos.h[p]] for p in range(PLACES)]
    out = []
    for d, suit in zip(pos.d, pos.suits, strict=True):
        out.append([sum(a * b for a, b in zip(d, vectors[p][suit], strict=True))
                    for p in range(PLACES)])
    return out


def probabilities(pos: Position, logits: list[list[float]] | None) -> list[list[float]]:
    """Each card's chance of each relative place: room × allowed × exp(logit) normalised
    (`logits` `None`: room-proportional with the hard facts)."""
    out = []
    for i, allowed in enumerate(pos.allowed):
        row = logits[i] if logits is not None else [0.0] * PLACES
        top = max((row[p] for p in range(PLACES) if allowed[p]), default=0.0)
        raw = [pos.room[p] * math.exp(row[p] - top) if allowed[p] else 0.0
               for p in range(PLACES)]
        total = sum(raw)
        out.append([x / total for x in raw] if total > 0 else [0.25] * PLACES)
    return out


def learned_belief(k: Knowledge, temper: float = TEMPER,
                   weights: Weights | None = None) -> Belief:
    """The `Belief` of `k.seen.seat` with the model's factors (to the power `temper`) as
    the soft weights; `sample_world` keeps every hard fact."""
    pos = position(k)
    logits = scores(pos, load_weights() if weights is None else weights)
    me = k.seen.seat
    belief = Belief(k, [{} for _ in range(5)])
    for card, row in zip(pos.cards, logits, strict=True):
        top = max(row)
        for p in range(PLACES):
            factor = max(-30.0, temper * (row[p] - top))
            belief.weight[place_seat(me, p)][card] = math.exp(factor)
    return belief

