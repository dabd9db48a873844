"""The random legal player: random legal moves from its own view (self-play, the `random`
computer player, benchmarks)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, Bury, CallFriends, Declare, Pass, Play
from engine.cards import Card
from engine.deal import deal_shape
from engine.follow import random_legal_follow
from engine.friends import legal_calls
from engine.game import Phase
from engine.trump import Trump
from engine.units import group_by_suit, unit_cards
from engine.views import PlayerView


def random_lead(hand: Sequence[Card], trump: Trump, rng: random.Random,
                throw_chance: float = 0.2) -> list[Card]:
    """A random lead: one unit of a random suit, or sometimes several (a throw attempt)."""
    groups = [group for group in group_by_suit(hand, trump) if group]
    units = unit_cards(rng.choice(groups), trump)  # as `decompose_suit`, lighter
    if len(units) >= 2 and rng.random() < throw_chance:
        chosen = rng.sample(units, rng.randint(2, min(len(units), 4)))
        return [card for unit in chosen for card in unit]
    return list(rng.choice(units))


@dataclass(slots=True)
class RandomAgent:
    """Random legal moves, from its own view only."""

    rng: random.Random
    declare_chance: float = 0.5

    def act(self, view: PlayerView) -> Action:
        """The agent's action for `view` (declaring, burying or playing)."""
        phase = view.public.phase
        if phase is Phase.PLAYING:
            trump = view.public.trump
            assert trump is not None
            lead = view.lead
            if lead is None:
                return Play(view.seat, tuple(random_lead(view.hand, trump, self.rng)))
            return Play(view.seat, tuple(random_legal_follow(view.hand, lead, trump, self.rng,
                                                             view.public.rules.follow)))
        if phase is Phase.DECLARING:
            options = view.legal_declarations
            if options and self.rng.random() < self.declare_chance:
                return Declare(view.seat, self.rng.choice(options))
            return Pass(view.seat)
        if phase is Phase.CALLING:  # Finding Friends (F4): any legal calls
            friends = deal_shape(view.public.rules).friends
            return CallFriends(view.seat, tuple(self.rng.sample(legal_calls(view), friends)))
        assert phase is Phase.BURYING and view.kitty is not None
        return Bury(view.seat, tuple(self.rng.sample(view.hand + view.kitty, len(view.kitty))))
