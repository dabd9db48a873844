"""The `ai` player: a belief about the hidden hands and determinized Monte Carlo search.

For every play it builds a belief about the unseen cards (the learned card-location model,
`engine.ai.belief`; the frozen `ai2` uses the hand-set `engine.ai.inference`), asks the
`expert` rules for their choice and the first player's rules (`engine.ai.policy`, an
independent second opinion) for theirs, and compares them with a few other candidates by
playing the rest of the hand out in deals sampled from the belief, every seat following the
expert rules with full sight of its sampled deal. The same sampled deals serve every candidate.
More deals are sampled where more points are at stake and for the declarers, within a fixed
amount of work per decision (a count of simulated plays, never the clock: the player is
deterministic given its seed). Sampling is sequential: candidates clearly worse than the
expert's choice are dropped early, and mid-hand a challenger well ahead but not yet clearly
better gets more deals against it (one deal's swing is large: few deals cannot tell).
Burying compares a few burials the same way over whole hands.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine.actions import Action, Bury, Play
from engine.ai.belief import learned_belief
from engine.ai.context import Knowledge, Seen
from engine.ai.expert import cards_key, cost, declare, expert_bury, expert_play, expert_rollout
from engine.ai.inference import Belief, sample_world
from engine.ai.moves import follow_options, simple_leads, wins_now
from engine.ai.others import HISTORY, weighted_worlds
from engine.ai.policy import TrackedInfo, choose_play
from engine.ai.sim import Sim
from engine.ai.tables import TrackedTable
from engine.ai.view import seen_of
from engine.cards import Card, card_points
from engine.game import HAND_SIZE, Phase
from engine.trump import Trump
from engine.units import group_by_suit
from engine.views import PlayerView

WORK = 2800
"""Simulated plays per decision at normal stakes (about 80 ms of CPU). Searching 1.3 times
longer was measured and had no effect: against `ai1`, +3.5 points of hands won [+0.1, +6.9]
over 300 paired deals (seed 2026) but -5.7 [-11.0, -0.4] over the first 114 of seed 2027."""
MIN_SAMPLES = 10
MAX_SAMPLES = 60
MAX_CANDIDATES = 9
ENDGAME_PLAYS = 36
"""From about the last eight tricks on, every decision gets at least `ENDGAME_SAMPLES`."""
ENDGAME_SAMPLES = 28
BIAS = 1.0
"""Points a deal another candidate must gain over the expert's choice (and `MARGIN`).
Asking less (the experiment `ai-bold`: 0.5 and 1.0 standard error) measured +0.4 points of
hands [−2.3, +3.0] against `ai1` over 400 paired deals on untuned seeds (docs/computers.md):
not better, so `ai` keeps 1.0 and 1.5."""
MARGIN = 1.5
"""Standard errors of the paired differences another candidate must gain."""
PRUNE_AFTER = 8
"""Deals after which a candidate clearly worse than the expert's choice is dropped."""
EXTEND_GAIN = 4.0
"""Mid-hand, a challenger ahead of the expert's choice by this many points a deal, but not
clearly, is played out in `EXTEND_SAMPLES` more deals against it."""
EXTEND_SAMPLES = 20
DECLARER_WORK = 1.6
"""Work factor for the declarers' decisions (the hand is theirs to lose)."""
BURY_SAMPLES = 8
OTHERS_TEMPER = 0.0
"""The power of the others' follows' likelihood (`engine.ai.others`) deals are kept by: 0 in
`ai` (every deal drawn is kept), 1 in the experiment `ai-others`. Measured against `ai1`
on untuned seeds, keeping deals that way did not play better: −0.5 points of hands
[−4.6, +3.6] over 200 paired deals, nor with τ 0.5 and a pool of 2 (`ai-others-light`):
−0.8 [−4.8, +3.1] over 240 (docs/computers.md), so `ai` does not use it."""
OTHERS_POOL = 3
"""Deals drawn for each deal kept by that likelihood (when the temper is above 0)."""


def utility(opp_points: int, declarer: bool) -> float:
    """A seat's value of the opponents' final points: points, plus the level thresholds."""
    value = (opp_points + 10 * (opp_points > 0) + 15 * (opp_points >= 40)
             + 40 * (opp_points >= 80) + 20 * (opp_points >= 120) + 20 * (opp_points >= 160))
    return -value if declarer else value


Utility = Callable[[int, bool], float]
"""A seat's value of the opponents' final points (`utility` and its variants)."""


def lead_candidates(hand: Sequence[Card], trump: Trump, choice: list[Card],
                    second: list[Card]) -> list[list[Card]]:
    """Leads worth comparing, most promising first: the expert's, the second opinion, the
    two biggest tractors or pairs, the top card of each suit, the next tractor or pair, the
    lowest card of each suit."""
    structured = [o for o in simple_leads(hand, trump) if len(o) > 1]
    structured.sort(key=lambda o: (-len(o), -trump.strength(o[0])))
    tops: list[list[Card]] = []
    lows: list[list[Card]] = []
    for group in sorted(group_by_suit(hand, trump), key=len):
        if group:
            ordered = sorted(group, key=lambda c: (trump.strength(c), c.points, c.code))
            tops.append([ordered[-1]])
            lows.append([ordered[0]])
    return _distinct([choice, second, *structured[:2], *tops, *structured[2:3], *lows])


def follow_candidates(table: TrackedTable, choice: list[Card],
                      second: list[Card]) -> list[list[Card]]:
    """Follows worth comparing, most promising first: the expert's, the second opinion, the
    cheapest winning play, the strongest, the one with most points, then the rest."""
    trump = table.trump
    options = follow_options(table.hand, table.plays[0], trump)
    winning = [o for o in options if wins_now(table.plays, o, trump, table.throw_ruff)]
    first: list[list[Card]] = [choice, second]
    if winning:
        first.append(min(winning, key=lambda o: cost(o, trump)))
        first.append(max(winning, key=lambda o: cost(o, trump)))
    first.append(max(options, key=lambda o: (card_points(o), -cost(o, trump))))
    return _distinct([*first, *options])


def _distinct(options: list[list[Card]]) -> list[list[Card]]:
    unique: dict[tuple[int, ...], list[Card]] = {}
    for option in options:
        unique.setdefault(cards_key(option), option)
    return list(unique.values())


def stakes(k: Knowledge, table: TrackedTable) -> float:
    """How much this decision may swing, in points (the trick, the cards, the kitty)."""
    trick = sum(card_points(p) for p in table.plays)
    mine = card_points(table.hand)
    last = len(table.hand) <= 4
    return trick + 0.5 * mine + (table.kitty_value() * 2 if last else 0.0)


class AiPlayer:
    """The main computer player (see the module docstring)."""

    value: Utility = staticmethod(utility)
    """How the search values a hand's outcome (variants are tried under other names)."""
    declarer_work = DECLARER_WORK
    work = WORK
    max_samples = MAX_SAMPLES
    believe: Callable[[Knowledge], Belief] = staticmethod(learned_belief)
    """The belief the deals are drawn from (the learned one since issue 40; the hand-set
    `inference.infer` in the frozen `ai2`)."""
    others_temper = OTHERS_TEMPER
    """Deals are kept by the likelihood of the others' follows to this power (issue 40's
    model of how the others play, `engine.ai.others`; 0: every deal drawn is kept)."""
    others_pool = OTHERS_POOL
    others_history = HISTORY
    """Complete tricks (the latest) whose follows the likelihood scores, with the current one."""
    bias = BIAS
    """Points a deal another play must gain over the expert's choice (`clear_winner`)."""
    margin = MARGIN
    """Standard errors of the paired differences it must gain (`clear_winner`)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"ai-search:{seed}")

    def decide(self, view: PlayerView) -> Action:
        public = view.public
        if public.phase is Phase.DECLARING:
            return declare(view)
        trump = public.trump
        assert trump is not None
        if public.phase is Phase.BURYING:
            return Bury(view.seat, tuple(self.bury(view, trump)))
        return Play(view.seat, tuple(self.play(Knowledge.of(seen_of(view)))))

    def play(self, k: Knowledge) -> list[Card]:
        table = TrackedTable(k)
        choice = expert_play(table)
        second = choose_play(TrackedInfo(k))
        trump = table.trump
        if table.plays:
            candidates = follow_candidates(table, choice, second)
        else:
            candidates = lead_candidates(table.hand, trump, choice, second)
        plays_left = sum(k.left) + 4
        work = self.work * min(2.0, 0.6 + stakes(k, table) / 50)
        if k.seen.is_declarer:
            work *= self.declarer_work
        # clearly worse candidates are dropped after `PRUNE_AFTER` deals: screen widely
        wide = max(2, min(MAX_CANDIDATES, int(work / (PRUNE_AFTER * plays_left))))
        candidates = candidates[:wide]
        if len(candidates) == 1:
            return choice
        samples = int(work / (len(candidates) * plays_left))
        endgame = plays_left <= ENDGAME_PLAYS
        if endgame:  # cheap to search: search it well
            samples = max(samples, ENDGAME_SAMPLES)
        samples = max(MIN_SAMPLES, min(self.max_samples, samples))
        belief = self.believe(k)
        draw = weighted_worlds(k, belief, self.rng, self.others_temper, self.others_pool,
                               history=self.others_history)
        return best_move(k, belief, candidates, samples, self.rng, self.bias, self.margin,
                         extend=0 if endgame else EXTEND_SAMPLES, value=self.value, draw=draw)

    def bury(self, view: PlayerView, trump: Trump) -> list[Card]:
        """The expert's burial against ones that void more or fewer suits, compared over
        whole hands in sampled deals; another wins only if clearly better."""
        assert view.kitty is not None and view.public.starter is not None
        cards = list(view.hand + view.kitty)
        unique = _distinct([expert_bury(cards, trump, bonus) for bonus in (24.0, 0.0, 50.0)])
        if len(unique) == 1:
            return unique[0]
        public = view.public
        shown = tuple((d.seat, d.cards) for d in public.declarations)
        scores: list[list[float]] = [[] for _ in unique]
        for _ in range(BURY_SAMPLES):
            seed = self.rng.getrandbits(32)
            for index, buried in enumerate(unique):
                kept = list(cards)
                for card in buried:
                    kept.remove(card)
                seen = Seen(view.seat, trump, tuple(kept), view.seat, kitty=tuple(buried),
                            shown=shown, rules=public.rules)
                sim = sample_world(self.believe(Knowledge.of(seen)), random.Random(seed))
                scores[index].append(self.value(expert_rollout(sim), True))
        return unique[clear_winner(scores, 0)]


class AiOthersPlayer(AiPlayer):
    """The experiment `ai-others`: `ai` whose deals are kept by the likelihood of the others'
    follows under the learned model of how they play (`engine.ai.others`, issue 40)."""

    others_temper = 1.0


class AiOthersLightPlayer(AiOthersPlayer):
    """The experiment `ai-others-light`: `ai-others` tempered gently (τ 0.5) with a pool of 2
    drawn a deal kept: more diverse deals, and cheaper. Not better than `ai3` in play
    (docs/computers.md)."""

    others_temper = 0.5
    others_pool = 2


class AiOthersAllPlayer(AiOthersPlayer):
    """The experiment `ai-others-all`: `ai-others` scoring the others' follows of every trick
    of the hand, not only the current one and the last `HISTORY`."""

    others_history = HAND_SIZE


class AiBoldPlayer(AiPlayer):
    """The experiment `ai-bold`: `ai` whose search overrides the expert rules' play more
    readily (issue 40's third attempt): another play needs 0.5 points a deal (not 1.0) and
    1.0 standard error (not 1.5) over the expert's choice. Burying is unchanged."""

    bias = 0.5
    margin = 1.0


class AiBolderPlayer(AiBoldPlayer):
    """The experiment `ai-bolder`: `ai-bold` with no points asked over the expert's choice,
    only 1.0 standard error."""

    bias = 0.0


class AiBoldLoosePlayer(AiBoldPlayer):
    """The experiment `ai-bold-loose`: `ai-bold` asking only 0.5 standard errors."""

    margin = 0.5


def clear_winner(scores: Sequence[Sequence[float]], home: int, bias: float = BIAS,
                 margin: float = MARGIN) -> int:
    """The index of the row that beats row `home` clearly (by more than `bias` a sample and
    `margin` standard errors of the paired differences), the best such; else `home`."""
    best, best_edge = home, 0.0
    for index, row in enumerate(scores):
        if index == home:
            continue
        mean, error = _paired(row, scores[home])
        wide = margin * (1 + 4 / len(row))  # few samples: wider (as Student's t)
        edge = mean - bias - wide * error
        if edge > best_edge:
            best, best_edge = index, edge
    return best


def best_move(k: Knowledge, belief: Belief, candidates: Sequence[Sequence[Card]],
              samples: int, rng: random.Random, bias: float = BIAS,
              margin: float = MARGIN, extend: int = 0, value: Utility = utility,
              draw: Callable[[], Sim] | None = None) -> list[Card]:
    """The best of `candidates` over deals drawn from `belief`, every candidate played out in
    the same deals. The first candidate (the expert's choice) is replaced only by one that
    beats it clearly (`clear_winner`): few samples must not overturn a sound rule on noise.

    Sequential: a candidate clearly worse than the first is dropped after `PRUNE_AFTER`
    deals, and when all that is left plays out alike in every deal, sampling stops. With
    `extend`, a challenger ahead by `EXTEND_GAIN` points a deal but not yet clearly better
    is played against the first in up to `extend` more deals (big swings are noisy).
    `draw` gives the deals instead of `sample_world(belief, rng)` (`others.weighted_worlds`)."""
    deal: Callable[[], Sim] = draw if draw is not None else (lambda: sample_world(belief, rng))
    declarer = k.seen.is_declarer
    scores: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    limit, drawn = samples, 0
    while drawn < limit and len(active) > 1:
        base = deal()
        for index in active:
            sim = base.copy()
            sim.play(candidates[index])
            scores[index].append(value(expert_rollout(sim), declarer))
        drawn += 1
        if drawn >= PRUNE_AFTER:
            active = [i for i in active if i == 0 or not _clearly_worse(scores[i], scores[0])]
            if all(scores[i] == scores[0] for i in active):
                break
        if drawn == samples and extend:
            rows = [scores[i] for i in active]
            pick = clear_winner(rows, 0, bias, margin)
            lead = max(active[1:], key=lambda i: _paired(scores[i], scores[0])[0], default=0)
            if pick == 0 and lead and _paired(scores[lead], scores[0])[0] > EXTEND_GAIN:
                active, limit = [0, lead], samples + extend
    pick = clear_winner([scores[i] for i in active], 0, bias, margin)
    return list(candidates[active[pick]])


def _paired(row: Sequence[float], home: Sequence[float]) -> tuple[float, float]:
    """The mean of the paired differences and its standard error."""
    diffs = [a - b for a, b in zip(row, home, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def _clearly_worse(row: Sequence[float], home: Sequence[float]) -> bool:
    mean, error = _paired(row, home)
    return mean + 2 * error < 0

