"""A learned model of how the others play their follows (issue 40), and the search's deals
weighted by it.

For a seat about to follow, its hand at that moment and the trick so far, every option
(`moves.follow_options`, plus the `expert` rules' choice with sight of every hand and the
play actually chosen when they are not among them) gets hand-crafted features (`FEATURES`:
does it win the trick now, the points it adds or gives, does it ruff, overtake the partner,
break a pair, is it the cheapest or dearest option, is it the sighted expert's choice, …)
and the model's chance of it is the softmax of `w · f` over the options. The weights are
fitted offline on the sparring pool's follows (numpy, `python -m tools.policy_fit`; the
gate: `python -m tools.policy_gate`) and ship as `others_weights.json`; inference is pure
Python.

`Replay` scores a sampled deal by the log-likelihood of the follows the other seats made in
the current trick and the last `HISTORY` tricks, had they held that deal's cards (each
seat's hand then: its cards in the deal and those it played since; the sighted expert's
choice then, a feature, from every seat's hand then).

`weighted_worlds` draws the search's deals from the belief in batches and keeps the deals
of each batch whose tempered likelihood, plus Gumbel noise, is highest (sampling without
replacement by weight): deals that explain the others' follows are kept more often
(docs/computers.md).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from engine.ai.context import Knowledge
from engine.ai.expert import cards_key, cost, expert_play
from engine.ai.inference import Belief, sample_world
from engine.ai.moves import follow_options, wins_now
from engine.ai.sim import Sim
from engine.ai.tables import ExactTable
from engine.cards import Card, card_points
from engine.rules import RuleSet, ThrowRuff
from engine.trick import trick_winner
from engine.trump import Trump

TRUMP = 4
FEATURES = (
    "wins", "wins_last", "wins_trick_points", "wins_own_points", "overtakes_partner",
    "feeds_partner", "gives_opponent", "ruffs", "discards", "cost_rank", "cheapest",
    "dearest", "cheapest_win", "breaks_pair", "points", "top_trump", "top_of_suit",
    "wins_declaring", "wins_second", "feeds_partner_last", "sighted_expert",
)
"""The features of an option, in the weights' order."""
WEIGHTS_PATH = Path(__file__).with_name("others_weights.json")
HISTORY = 3
"""Complete tricks (the latest) whose follows a deal is scored by, with the current one's:
each follow costs a sighted expert's choice in every deal (older evidence is mostly in the
learned belief already)."""
FLOOR = -6.0
"""The log-chance a follow gets when it is not a legal option of the hand supposed (a
relaxed deal) or the model gives it less."""


def options_of(hand: Sequence[Card], plays: Sequence[Sequence[Card]], trump: Trump,
               *extra: Sequence[Card]) -> list[list[Card]]:
    """The follows the model chooses among: `follow_options`, plus each of `extra` (the
    sighted expert's choice, the play chosen) if missing (an empty one: none)."""
    options = follow_options(hand, plays[0], trump)
    keys = {cards_key(o) for o in options}
    for cards in extra:
        key = cards_key(cards)
        if cards and key not in keys:
            keys.add(key)
            options.append(list(cards))
    return options


def sighted_expert(hands: Sequence[Sequence[Card]], leader: int,
                   plays: Sequence[Sequence[Card]], starter: int, kitty_points: int,
                   trump: Trump, rules: RuleSet) -> list[Card]:
    """The `expert` rules' choice for the seat after `plays` with sight of every hand
    (`hands`: each seat's cards at that moment)."""
    sim = Sim(trump, [list(h) for h in hands], starter, leader, [list(p) for p in plays], 0,
              kitty_points, rules)
    return expert_play(ExactTable(sim))


def features(hand: Sequence[Card], plays: Sequence[Sequence[Card]], trump: Trump,
             throw_ruff: ThrowRuff, declaring: bool, options: Sequence[Sequence[Card]],
             expert: Sequence[Card]) -> list[list[float]]:
    """Each option's features (`FEATURES`) for a seat holding `hand` that follows `plays`
    (`expert`: the sighted expert's choice)."""
    expert_key = cards_key(expert)
    position = len(plays)
    before = [list(p) for p in plays]
    winner = trick_winner(before, trump, throw_ruff)
    partner_winning = position - winner == 2
    trick_points = card_points(c for p in plays for c in p) / 20
    lead_suit = trump.suit_indexes[plays[0][0].code]
    suits = trump.suit_indexes
    strengths = trump.strengths
    counts: dict[int, int] = {}
    tops = [-1] * 5
    for card in hand:
        counts[card.code] = counts.get(card.code, 0) + 1
        tops[suits[card.code]] = max(tops[suits[card.code]], strengths[card.code])
    costs = [cost(o, trump) for o in options]
    wins = [wins_now(before, o, trump, throw_ruff) for o in options]
    low, high = min(costs), max(costs)
    low_win = min((c for c, w in zip(costs, wins, strict=True) if w), default=None)
    level = trump.level
    rows = []
    for option, price, win in zip(options, costs, wins, strict=True):
        points = card_points(option) / 10
        in_suit = all(suits[c.code] == lead_suit for c in option)
        trumps = any(suits[c.code] == TRUMP for c in option)
        ruff = lead_suit != TRUMP and trumps and not in_suit
        rows.append([
            float(win),
            float(win and position == 3),
            trick_points if win else 0.0,
            points if win else 0.0,
            float(partner_winning and win),
            points if partner_winning else 0.0,
            points if not partner_winning and not win else 0.0,
            float(ruff),
            float(not in_suit and not ruff),
            (price - low) / (high - low) if high > low else 0.0,
            float(price == low),
            float(price == high and high > low),
            float(win and price == low_win),
            float(len(plays[0]) == 1 and counts.get(option[0].code, 0) >= 2),
            points,
            float(any(c.suit is None or c.rank == level for c in option)),
            float(max(strengths[c.code] for c in option) >= tops[suits[option[0].code]]),
            float(win and declaring),
            float(win and position == 1),
            points if partner_winning and position == 3 else 0.0,
            float(cards_key(option) == expert_key),
        ])
    return rows


@cache
def load_weights(path: Path = WEIGHTS_PATH) -> tuple[float, ...]:
    """The shipped weights (`tools.policy_fit` writes them), checked against `FEATURES`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES or len(data["w"]) != len(FEATURES):
        raise ValueError(f"{path}: weights do not match the features")
    return tuple(float(x) for x in data["w"])


def probabilities(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """The softmax of `weights · row` over the options' rows."""
    logits = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    top = max(logits)
    raw = [math.exp(z - top) for z in logits]
    total = sum(raw)
    return [x / total for x in raw]


def follow_chances(hand: Sequence[Card], plays: Sequence[Sequence[Card]], trump: Trump,
                   throw_ruff: ThrowRuff, declaring: bool, expert: Sequence[Card],
                   weights: Sequence[float] | None = None
                   ) -> list[tuple[list[Card], float]]:
    """The model's chance of each of `options_of(hand, plays, trump, expert)`."""
    options = options_of(hand, plays, trump, expert)
    rows = features(hand, plays, trump, throw_ruff, declaring, options, expert)
    chances = probabilities(rows, load_weights() if weights is None else weights)
    return list(zip(options, chances, strict=True))


class Replay:
    """The others' follows of this hand as seen by one seat, to score sampled deals."""

    def __init__(self, k: Knowledge, history: int = HISTORY,
                 weights: Sequence[float] | None = None, sighted: int = HISTORY) -> None:
        seen = k.seen
        self.trump = seen.trump
        self.rules = seen.rules
        self.starter = seen.starter
        self.weights = load_weights() if weights is None else tuple(weights)
        first = max(0, len(seen.tricks) - history) if history else len(seen.tricks)
        tricks = list(seen.tricks[first:])
        if seen.current is not None and seen.current.plays:
            tricks.append(seen.current)
        recent = len(seen.tricks) - sighted
        self.follows: list[tuple[int, int, list[list[Card]], list[Card], list[list[Card]],
                                 bool]] = []
        """Each follow by another seat: who, the trick's leader, the plays before, the play,
        the cards every seat played from that moment on, and whether the sighted expert's
        choice is worked out for it (the current trick and the last `sighted`; older
        follows are scored without that feature, a cheaper stand-in)."""
        since: list[list[Card]] = [[] for _ in range(4)]
        for number, trick in reversed(list(enumerate(tricks, first))):
            for index in range(len(trick.plays) - 1, -1, -1):
                who = trick.seat_of(index)
                since[who] = [*since[who], *trick.plays[index]]
                if index and who != seen.seat:
                    before = [list(p) for p in trick.plays[:index]]
                    self.follows.append((who, trick.leader, before, list(trick.plays[index]),
                                         list(since), number >= recent))

    def log_likelihood(self, sim: Sim) -> float:
        """The log-chance of the others' follows had the hands been `sim`'s (now)."""
        total = 0.0
        for who, leader, before, play, since, sight in self.follows:
            hands = [[*sim.hands[s], *since[s]] for s in range(4)]
            expert = sighted_expert(hands, leader, before, self.starter, sim.kitty_points,
                                    self.trump, self.rules) if sight else []
            total += self._score(who, before, play, hands[who], expert)
        return total

    def _score(self, who: int, before: list[list[Card]], play: list[Card],
               hand: list[Card], expert: list[Card]) -> float:
        options = options_of(hand, before, self.trump, expert)
        key = cards_key(play)
        keys = [cards_key(o) for o in options]
        if key not in keys:
            return FLOOR
        rows = features(hand, before, self.trump, self.rules.throw_ruff,
                        who % 2 == self.starter % 2, options, expert)
        chance = probabilities(rows, self.weights)[keys.index(key)]
        return max(FLOOR, math.log(chance)) if chance > 0 else FLOOR


def weighted_worlds(k: Knowledge, belief: Belief, rng: random.Random, temper: float,
                    pool: int, batch: int = 4, history: int = HISTORY) -> Callable[[], Sim]:
    """A source of deals for the search: deals drawn from `belief` in batches of
    `pool × batch`, of which the `batch` with the highest `temper` × log-likelihood of the
    others' follows (of the current trick and the last `history`) plus Gumbel noise are kept
    (with `temper` 0, every deal drawn is kept)."""
    if temper <= 0 or pool <= 1:
        return lambda: sample_world(belief, rng)
    replay = Replay(k, history, sighted=min(history, HISTORY))
    if not replay.follows:
        return lambda: sample_world(belief, rng)
    ready: list[Sim] = []

    def draw() -> Sim:
        if not ready:
            drawn = [sample_world(belief, rng) for _ in range(pool * batch)]
            keyed = [(temper * replay.log_likelihood(sim)
                      - math.log(-math.log(rng.random() or 1e-300)), index)
                     for index, sim in enumerate(drawn)]
            keyed.sort(reverse=True)
            ready.extend(drawn[index] for _, index in reversed(keyed[:batch]))
        return ready.pop()
    return draw

