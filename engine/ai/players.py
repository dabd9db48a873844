"""Computer players: `random`, `greedy` and `ai`. Each sees only `view_for(seat)`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from engine.actions import Action, Bury, Declare, Pass, Play
from engine.ai.bidding import ai_bury, ai_declaration, greedy_bury, greedy_declaration
from engine.ai.context import Knowledge
from engine.ai.moves import discard_key, follow_options, simple_leads, wins_now
from engine.ai.policy import TrackedInfo, choose_play, safe_units
from engine.ai.view import seen_of
from engine.cards import Card, card_points
from engine.follow import random_legal_follow
from engine.game import BATCHES, Phase
from engine.trick import trick_winner
from engine.units import group_by_suit
from engine.views import PlayerView


class Player(Protocol):
    """A computer player: answers every decision of its seat from its view alone."""

    def decide(self, view: PlayerView) -> Action: ...


class RandomPlayer:
    """Uniform over legal moves; declares at a chance with probability ½; random bury."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"random-player:{seed}")

    def decide(self, view: PlayerView) -> Action:
        phase = view.public.phase
        if phase is Phase.DECLARING:
            if view.legal_declarations and self.rng.random() < 0.5:
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


class AiPlayer:
    """The main computer player: card tracking, heuristics, Monte Carlo where they are weak."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

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
            assert view.kitty is not None
            return Bury(view.seat, tuple(ai_bury(view.hand + view.kitty, trump)))
        info = TrackedInfo(Knowledge.of(seen_of(view)))
        return Play(view.seat, tuple(choose_play(info)))


PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "ai": AiPlayer,
}


def make_player(name: str, seed: int) -> Player:
    """A computer player by name (`random`, `greedy`, `ai`), deterministic given `seed`."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYERS)}") from None
    return factory(seed)
