"""A Finding Friends hand played by random legal seats (engine only), for the records
tests: every intermediate match, so records can be built at each step as the bot does."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.actions import Action, Bury, CallFriends, Declare, Pass, Play, StartHand
from engine.ai.random_agent import random_lead
from engine.follow import random_legal_follow
from engine.friends import FriendCall, legal_calls
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet
from engine.views import PlayerView


def friends_rules(players: int = 6) -> RuleSet:
    return RuleSet(mode=Mode.FRIENDS, players=players)


def _calls(view: PlayerView, friends: int, rng: random.Random) -> tuple[FriendCall, ...]:
    options = legal_calls(view)
    chosen: list[FriendCall] = []
    for call in rng.sample(options, len(options)):
        if all(call.card != c.card for c in chosen):
            chosen.append(call)
        if len(chosen) == friends:
            break
    return tuple(chosen)


def next_action(match: Match, rng: random.Random) -> Action:
    """Whoever must act, a random legal action from their own view."""
    hand = match.hand
    assert hand is not None
    if hand.phase is Phase.DECLARING:
        seat = next(s for s in range(match.seats) if s not in hand.responded)
        options = match.view_for(seat).legal_declarations
        return Declare(seat, options[0]) if options and rng.random() < 0.5 else Pass(seat)
    seat = hand.turn
    assert seat is not None
    view = match.view_for(seat)
    if hand.phase is Phase.BURYING:
        assert view.kitty is not None
        return Bury(seat, tuple(rng.sample(view.hand + view.kitty, match.shape.kitty_size)))
    if hand.phase is Phase.CALLING:
        return CallFriends(seat, _calls(view, match.shape.friends, rng))
    trump = view.public.trump
    assert trump is not None
    if view.lead is None:
        return Play(seat, tuple(random_lead(view.hand, trump, rng)))
    return Play(seat, tuple(random_legal_follow(view.hand, view.lead, trump, rng,
                                                match.rules.follow)))


def play_friends_hand(match: Match, seed: int) -> Iterator[tuple[Action, Match]]:
    """Start a hand from ``seed`` and play it out: yields (action, match after it)."""
    rng = random.Random(f"friends:{seed}")
    action: Action = StartHand(seed)
    while True:
        match, _ = match.apply(action)
        yield action, match
        if match.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
            return
        action = next_action(match, rng)
