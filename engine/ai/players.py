"""Computer players `random`, `greedy` and `ai1` (the frozen first `ai`). Each sees only
`view_for(seat)`. The registry of every player and the strength levels is `engine.ai.registry`.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.actions import Action, Bury, Declare, Pass, Play
from engine.ai.bidding import ai_bury, ai_declaration, greedy_bury, greedy_declaration
from engine.ai.context import Knowledge, Seen
from engine.ai.montecarlo import best_move, utility, world
from engine.ai.moves import discard_key, follow_options, simple_leads, units_of, wins_now
from engine.ai.policy import TrackedInfo, choose_play, rollout, safe_units
from engine.ai.view import seen_of
from engine.cards import Card, card_points
from engine.follow import random_legal_follow
from engine.game import BATCHES, Phase
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import group_by_suit
from engine.views import PlayerView


class Player(Protocol):
    """A computer player: answers every decision of its seat from its view alone."""

    def decide(self, view: PlayerView) -> Action: ...


class RandomPlayer:
    """Uniform over legal moves; declares at its first chance in a deal with probability ½
    (and then not again that deal); random bury."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"random-player:{seed}")
        self.decided: tuple[int, int] | None = None
        """The (hand, deal) in which it had its chance to declare."""

    def decide(self, view: PlayerView) -> Action:
        phase = view.public.phase
        if phase is Phase.DECLARING:
            deal = (view.public.hand_no, view.public.deal_no)
            if view.legal_declarations and self.decided != deal:
                self.decided = deal
                if self.rng.random() < 0.5:
                    return Declare(view.seat, self.rng.choice(view.legal_declarations))
            return Pass(view.seat)
        if phase is Phase.BURYING:
            assert view.kitty is not None
            return Bury(view.seat, tuple(self.rng.sample(view.hand + view.kitty, 8)))
        trump = view.public.trump
        assert trump is not None
        lead = view.lead
        if lead is None:
            return Play(view.seat, tuple(self.rng.choice(simple_leads(view.hand, trump))))
        return Play(view.seat, tuple(random_legal_follow(view.hand, lead, trump, self.rng)))


class GreedyPlayer:
    """A simple rule player (see the module docs of `engine.ai`)."""

    def __init__(self, seed: int) -> None:
        del seed  # deterministic without chance

    def decide(self, view: PlayerView) -> Action:
        phase = view.public.phase
        if phase is Phase.DECLARING:
            level = view.public.level
            assert level is not None
            option = greedy_declaration(view.hand, view.legal_declarations, level)
            return Pass(view.seat) if option is None else Declare(view.seat, option)
        trump = view.public.trump
        assert trump is not None
        if phase is Phase.BURYING:
            assert view.kitty is not None
            return Bury(view.seat, tuple(greedy_bury(view.hand + view.kitty, trump)))
        info = TrackedInfo(Knowledge.of(seen_of(view)))
        return Play(view.seat, tuple(greedy_play(info)))


def greedy_play(info: TrackedInfo) -> list[Card]:
    trump = info.trump
    hand = info.hand
    key = discard_key(hand, trump)
    if not info.plays:
        groups = group_by_suit(hand, trump)
        for suit in range(4):  # unbeatable throws
            safe = safe_units(info, groups[suit])
            if len(safe) >= 2:
                return [c for unit in safe for c in unit]
        for suit in range(4):  # side aces (the top rank of the suit)
            tops = [c for c in groups[suit] if trump.strength(c) == 11]
            if tops:
                return [tops[0]]
        side_pairs = [c for s in range(4) for c in set(groups[s]) if groups[s].count(c) >= 2]
        if side_pairs:
            card = max(side_pairs, key=trump.strength)
            return [card, card]
        return [min(hand, key=key)]
    plays = info.plays
    options = follow_options(hand, plays[0], trump)
    winner = (info.leader + trick_winner(plays, trump)) % 4
    points = sum(card_points(p) for p in plays)
    if winner % 2 != info.seat % 2 and points > 0:
        winning = [o for o in options if wins_now(plays, o, trump)]
        if winning:
            return min(winning, key=lambda o: sum(trump.strength(c) + 20 * trump.is_trump(c)
                                                  for c in o))
    return min(options, key=lambda o: sum(key(c) for c in o))


ENDGAME_CARDS = 7
"""Monte Carlo decides every play once a hand holds this few cards (the last ~6 tricks)."""
ENDGAME_SAMPLES = 16
THROW_BUDGET = 450
"""Samples × candidates × cards in hand for a mid-hand throw decision (~200 ms)."""
THROW_CANDIDATES = 4
THROW_BIAS = 3.0
"""A throw that counting proves safe is kept unless the samples clearly prefer a unit."""
BURY_SAMPLES = 10
MAX_CANDIDATES = 8


class Ai1Player:
    """The first `ai`, frozen as `ai1`: card tracking, heuristics, Monte Carlo in the endgame
    and for throws. Kept unchanged as a baseline (do not tune it)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"ai-player:{seed}")

    def decide(self, view: PlayerView) -> Action:
        public = view.public
        phase = public.phase
        if phase is Phase.DECLARING:
            level = public.level
            assert level is not None
            standing = public.standing
            option = ai_declaration(view.hand, view.legal_declarations, level,
                                    None if standing is None else standing.seat, view.seat,
                                    public.starter, public.batch == BATCHES)
            return Pass(view.seat) if option is None else Declare(view.seat, option)
        trump = public.trump
        assert trump is not None
        if phase is Phase.BURYING:
            return Bury(view.seat, tuple(self.bury(view, trump)))
        return Play(view.seat, tuple(self.play(Knowledge.of(seen_of(view)))))

    def bury(self, view: PlayerView, trump: Trump) -> list[Card]:
        """The heuristic bury and a few variants, compared by Monte Carlo over whole hands."""
        assert view.kitty is not None and view.public.starter is not None
        cards = list(view.hand + view.kitty)
        options = [ai_bury(cards, trump, void_bonus) for void_bonus in (18.0, 0.0, 40.0)]
        options.append(greedy_bury(cards, trump))
        unique = list({tuple(sorted(c.code for c in o)): o for o in options}.values())
        if len(unique) == 1:
            return unique[0]
        public = view.public
        shown = tuple((d.seat, d.cards) for d in public.declarations)
        totals = [0.0] * len(unique)
        for _ in range(BURY_SAMPLES):
            seed = self.rng.getrandbits(32)
            for index, buried in enumerate(unique):
                kept = list(cards)
                for card in buried:
                    kept.remove(card)
                seen = Seen(view.seat, trump, tuple(kept), view.seat, kitty=tuple(buried),
                            shown=shown, rules=public.rules)
                sim = world(Knowledge.of(seen), random.Random(seed))
                totals[index] += utility(rollout(sim), True)
        return unique[max(range(len(unique)), key=lambda i: (totals[i], -i))]

    def play(self, k: Knowledge) -> list[Card]:
        """The heuristic play; Monte Carlo for throws and in the endgame."""
        info = TrackedInfo(k)
        choice = choose_play(info)
        trump = info.trump
        endgame = len(info.hand) <= ENDGAME_CARDS
        throw = not info.plays and len(units_of(choice, trump)) > 1
        if not (endgame or throw):
            return choice
        if not endgame:  # a throw mid-hand: against leading its units one by one
            units = [list(u.cards) for u in units_of(choice, trump)]
            candidates = [choice, *units[: THROW_CANDIDATES - 1]]
            samples = max(3, THROW_BUDGET // (len(candidates) * len(info.hand)))
            return best_move(k, candidates, choice, samples, self.rng, bias=THROW_BIAS)
        if info.plays:
            candidates = follow_options(info.hand, info.plays[0], trump)
        else:
            candidates = lead_candidates(info, choice)
        if len(candidates) > MAX_CANDIDATES:
            key = sorted(c.code for c in choice)
            rest = [o for o in candidates if sorted(c.code for c in o) != key]
            candidates = [choice, *rest[: MAX_CANDIDATES - 1]]
        return best_move(k, candidates, choice, ENDGAME_SAMPLES, self.rng)


def lead_candidates(info: TrackedInfo, choice: list[Card]) -> list[list[Card]]:
    """Leads worth comparing: the heuristic's, safe throws, the lowest and highest single of
    each suit, every pair and tractor."""
    trump = info.trump
    options: list[list[Card]] = [choice]
    for group in group_by_suit(info.hand, trump):
        if not group:
            continue
        ordered = sorted(group, key=trump.strength)
        options += [[ordered[0]], [ordered[-1]]]
        safe = safe_units(info, group)
        if len(safe) > 1:
            options.append([c for unit in safe for c in unit])
    options += [o for o in simple_leads(info.hand, trump) if len(o) > 1]
    unique: dict[tuple[int, ...], list[Card]] = {}
    for option in options:
        unique.setdefault(tuple(sorted(c.code for c in option)), option)
    return list(unique.values())
