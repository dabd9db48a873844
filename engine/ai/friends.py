"""Computer players for Finding Friends (issue 14; rules F1–F6): every `make_player` player
answers a friends-mode view through `friends_aware` — `random` with random legal moves,
every other name and level with `FriendsPlayer`, the rule player.

The rule player counts cards with D decks (`engine.ai.friends_know`), plays to the sides as
far as they are known (`engine.ai.friends_play`), and decides the rest like this:

- Declaring: the weakest legal declaration (fewest copies that still beat the standing one)
  whose trump would make more than 5 trumps and 40% of the cards held; in the last window of
  a first hand that nobody declared in yet, the one that gives the most trumps (no redeal).
- Burying `kitty_size` cards: trumps, aces (the top card of a side suit), points and tuples
  stay in hand; short side suits are voided when that is cheap; else the lowest singles.
- Calling friends: what strong players call. For each call, the top card of a side suit
  (the ace, or the king when aces are the level), and the copy right after the ones the
  starter holds: holding none, "the 1st A♥" — preferably of a suit the starter is short in
  (one to three cards: it leads a low one and the friend takes the trick with the ace,
  revealing itself); holding one, "the 2nd A♥" (with three decks and two held, the 3rd) —
  the starter leads its own copies first, so the called copy is surely someone else's and
  the starter's aces still take their tricks. A card whose other copies the starter buried is
  never called (nobody could play them). With several calls, different suits first. Never
  a copy the starter would play itself (that call would add nobody, F4).
- Playing: a hidden friend (it holds the copies a call still needs, so it knows) plays as
  the starter's side: it feeds the starter's side points and plays the called copy when it
  takes the trick; the starter leads towards its friends; everyone feeds an ally who wins
  for sure, takes enemy tricks cheaply when the play holds, and gives enemies no points.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from engine.actions import Action, Bury, CallFriends, Declare, Pass, Play
from engine.ai.bidding import ai_bury, greedy_declaration, trump_count
from engine.ai.friends_know import FriendsTable
from engine.ai.friends_play import choose_play
from engine.ai.players import Player
from engine.ai.random_agent import RandomAgent
from engine.cards import Card
from engine.deal import deal_shape
from engine.friends import FriendCall, legal_calls
from engine.game import Phase
from engine.rules import Mode
from engine.trump import Trump
from engine.views import PlayerView

TOP = 11
"""The strength of a side suit's top card (the ace, or the king when aces are the level)."""


class FriendsPlayer:
    """The rule player for Finding Friends (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        del seed  # deterministic without chance

    def decide(self, view: PlayerView) -> Action:
        public = view.public
        phase = public.phase
        if phase is Phase.DECLARING:
            option = declaration(view)
            return Pass(view.seat) if option is None else Declare(view.seat, option)
        trump = public.trump
        assert trump is not None
        if phase is Phase.BURYING:
            assert view.kitty is not None
            return Bury(view.seat, tuple(bury(view.hand + view.kitty, trump, len(view.kitty))))
        if phase is Phase.CALLING:
            return CallFriends(view.seat, choose_calls(view))
        return Play(view.seat, tuple(choose_play(FriendsTable(view))))


class SelfishFriendsPlayer(FriendsPlayer):
    """A greedy-like baseline for the arena: declares and buries like `FriendsPlayer`, calls
    at random, and plays every trick for itself (no sides, no hidden friends)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.rng = random.Random(f"selfish-friends:{seed}")

    def decide(self, view: PlayerView) -> Action:
        phase = view.public.phase
        if phase is Phase.CALLING:
            friends = deal_shape(view.public.rules).friends
            return CallFriends(view.seat, tuple(self.rng.sample(legal_calls(view), friends)))
        if phase is Phase.PLAYING:
            return Play(view.seat, tuple(choose_play(FriendsTable(view, selfish=True))))
        return super().decide(view)


class RandomFriendsPlayer:
    """Random legal moves in Finding Friends (the self-play agent), from its view only."""

    def __init__(self, seed: int) -> None:
        self.agent = RandomAgent(random.Random(f"random-friends:{seed}"))

    def decide(self, view: PlayerView) -> Action:
        return self.agent.act(view)


P = TypeVar("P", bound=Player)


def friends_player(name: str, seed: int) -> Player:
    """The Finding Friends player that plays for player `name` (a registry name)."""
    return RandomFriendsPlayer(seed) if name == "random" else FriendsPlayer(seed)


def friends_aware(player: P, name: str, seed: int) -> P:
    """`player` (built by the registry as `name`), answering Finding Friends views with
    `friends_player(name, seed)` and every other view as before. The player keeps its class
    (its `decide` is wrapped on the instance), so the four-player game is untouched."""
    friends = friends_player(name, seed)
    teams = player.decide

    def decide(view: PlayerView) -> Action:
        if view.public.rules.mode is Mode.FRIENDS:
            return friends.decide(view)
        return teams(view)
    setattr(player, "decide", decide)  # noqa: B010 - an instance attribute, not the class's
    return player


# --- declaring ------------------------------------------------------------------------------


def declaration(view: PlayerView) -> tuple[Card, ...] | None:
    """What to declare now, if anything (module docstring)."""
    public = view.public
    options = view.legal_declarations
    level = public.level
    if not options or level is None:
        return None
    option = greedy_declaration(view.hand, options, level)
    last_window = public.batch == len(deal_shape(public.rules).batches)
    if option is None and last_window and public.starter is None and public.standing is None:
        return max(options, key=lambda o: trump_count(view.hand, Trump(level, o[0].suit)))
    return option


# --- burying --------------------------------------------------------------------------------


def _keep_value(card: Card, trump: Trump, counts: Counter[Card]) -> float:
    """How costly burying `card` is (higher: keep)."""
    if trump.is_trump(card):
        return 100 + trump.strength(card)
    value = trump.strength(card) + card.points * 3.0 + 25 * (counts[card] - 1)
    if trump.strength(card) == TOP:
        value += 40
    return value


def bury(cards: Sequence[Card], trump: Trump, size: int) -> list[Card]:
    """`size` cards to bury: void up to two short side suits when cheap, else the cheapest
    cards (no trumps, aces, points or tuples if it can be helped)."""
    return ai_bury(cards, trump, value=_keep_value, size=size)


# --- calling --------------------------------------------------------------------------------


def call_score(call: FriendCall, hand: Sequence[Card], kitty: Sequence[Card], trump: Trump,
               decks: int) -> float | None:
    """How good `call` is for the starter holding `hand` (after burying `kitty`); `None`
    for a call that cannot bring a friend or that the starter would answer itself."""
    card = call.card
    held, buried = hand.count(card), kitty.count(card)
    if decks - held - buried < 1 or call.copy != held + 1:
        return None
    strength = trump.strength(card)
    score = strength * 10.0 + (40 if strength == TOP else 0)
    length = sum(1 for c in hand if trump.suit_index(c) == trump.suit_index(card))
    if held:
        score += 10  # its own copies lead first and take their tricks
    elif 1 <= length <= 3:
        score += 15  # a low lead finds the friend
    elif length == 0:
        score += 5
    else:
        score -= 3 * (length - 3)
    return score


def choose_calls(view: PlayerView) -> tuple[FriendCall, ...]:
    """The starter's calls (module docstring): exactly `friends` distinct legal calls."""
    public = view.public
    trump = public.trump
    assert trump is not None
    shape = deal_shape(public.rules)
    legal = legal_calls(view)
    kitty = view.kitty or ()
    scored = [(score, call) for call in legal
              if (score := call_score(call, view.hand, kitty, trump, shape.decks)) is not None]
    chosen: list[FriendCall] = []
    while scored and len(chosen) < shape.friends:
        suits = {c.card.suit for c in chosen}
        score, call = max(scored, key=lambda sc: sc[0] - (60 if sc[1].card.suit in suits else 0))
        chosen.append(call)
        scored = [(s, c) for s, c in scored if c.card != call.card]
    for call in legal:  # too few good calls: any others
        if len(chosen) == shape.friends:
            break
        if call not in chosen:
            chosen.append(call)
    return tuple(chosen)
