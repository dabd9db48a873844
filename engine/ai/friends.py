"""Computer players for Finding Friends (issue 14; rules F1–F6). Each registry name has its
own Friends player (`FRIENDS_PLAYERS`), at its own strength: `random` random legal moves,
`greedy` (easy) `GreedyFriendsPlayer`, `expert` (normal) `FriendsPlayer` (the rule player),
`ai1` (and the frozen `ai2`, `ai3`) `SearchingFriendsPlayer` (the rule player plus a sampled
search of each trick it follows), `ai` (strong) `BeliefFriendsPlayer` (that search over worlds
drawn from the Friends belief, `engine.ai.friends_belief`). `engine.ai.registry` composes
them with the four-player players by the variant a view plays (`ByMode`), nothing patched.

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
from collections.abc import Callable, Sequence

from engine.actions import Action, Bury, CallFriends, Declare, Pass, Play
from engine.ai.bidding import ai_bury, greedy_declaration, trump_count
from engine.ai.friends_belief import sample_world
from engine.ai.friends_know import FriendsTable
from engine.ai.friends_play import (
    card_value,
    choose_play,
    discard_key,
    follow_candidates,
    reveals_friend,
    self_voiding,
)
from engine.ai.moves import follow_options
from engine.ai.players import Player
from engine.ai.random_agent import RandomAgent
from engine.cards import Card, card_points
from engine.deal import deal_shape
from engine.friends import FriendCall, legal_calls
from engine.game import Phase
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


class GreedyFriendsPlayer(FriendsPlayer):
    """Easy: `greedy`'s heuristics applied to Finding Friends — declares like `greedy`,
    buries and calls like the rule player, and plays greedily for the side it knows: leads
    its strongest side card (else its cheapest), takes a trick an enemy is winning with the
    cheapest play that wins now if there are points in it, else plays its cheapest cards."""

    def decide(self, view: PlayerView) -> Action:
        public = view.public
        if public.phase is Phase.DECLARING:
            level = public.level
            assert level is not None
            option = greedy_declaration(view.hand, view.legal_declarations, level)
            return Pass(view.seat) if option is None else Declare(view.seat, option)
        if public.phase is Phase.PLAYING:
            return Play(view.seat, tuple(greedy_friends_play(FriendsTable(view))))
        return super().decide(view)


def greedy_friends_play(t: FriendsTable) -> list[Card]:
    """`GreedyFriendsPlayer`'s play (its docstring)."""
    trump, cheap = t.trump, discard_key(t)
    if not t.plays:
        tops = [c for c in t.hand if not trump.is_trump(c) and trump.strength(c) >= TOP]
        return [max(tops, key=trump.strength)] if tops else [min(t.hand, key=cheap)]
    options = follow_candidates(t)
    winner = (t.leader + t.winner_index(t.plays)) % t.seats
    points = sum(card_points(p) for p in t.plays)
    if not t.allied(winner) and points > 0:
        winning = [o for o in options if t.wins_now(o)]
        if winning:
            return min(winning, key=lambda o: sum(card_value(c, trump) for c in o))
    return min(options, key=lambda o: sum(cheap(c) for c in o))


SEARCH_SAMPLES = 12
"""Deals of the unseen cards `SearchingFriendsPlayer` plays each candidate follow against."""


class SearchingFriendsPlayer(FriendsPlayer):
    """Strong: the rule player, and when following with a choice, a search — each candidate
    play is tried against `SEARCH_SAMPLES` deals of the unseen cards to the seats still to
    play (each answering as greedy would for the side it is likely on), and the play that
    keeps most points for this seat's side at the least cost in control wins; the rule
    player's own choice breaks ties and is kept unless another is clearly better."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.rng = random.Random(f"searching-friends:{seed}")

    def decide(self, view: PlayerView) -> Action:
        if view.public.phase is Phase.PLAYING and view.lead is not None:
            return Play(view.seat, tuple(self.follow(FriendsTable(view))))
        return super().decide(view)

    def follow(self, t: FriendsTable) -> list[Card]:
        chosen = choose_play(t)
        every = follow_candidates(t)
        options = [o for o in every if not self_voiding(t, o)]
        later = t.later()
        if len(options) < 2 or not later or reveals_friend(t, chosen):
            return chosen  # a hidden friend showing itself is the rule player's to time
        worlds = self.worlds(t, later)

        def value(option: list[Card]) -> float:
            total = sum(_trick_value(t, option, hands, side) for hands, side in worlds)
            return total / len(worlds) - 0.5 * sum(card_value(c, t.trump) for c in option)
        best = max(options, key=value)
        return best if value(best) > value(chosen) + 2.0 else chosen

    def worlds(self, t: FriendsTable, later: list[int]) -> list[tuple[Hands, Side]]:
        """`SEARCH_SAMPLES` deals of the unseen cards to the `later` seats, at random, each
        with this seat's view of the sides (`FriendsTable.ally`)."""
        pool = list(t.unseen.elements())
        worlds: list[tuple[Hands, Side]] = []
        for _ in range(SEARCH_SAMPLES):
            self.rng.shuffle(pool)
            hands, start = {}, 0
            for seat in later:
                hands[seat] = pool[start:start + t.left[seat]]
                start += t.left[seat]
            worlds.append((hands, t.ally))
        return worlds


class BeliefFriendsPlayer(SearchingFriendsPlayer):
    """Strong (`ai`, issue 40): `SearchingFriendsPlayer` searching worlds drawn from the
    Friends belief (`engine.ai.friends_belief`): the called copies with the seats likely to
    hold them, those seats on the starter's side in that world, no cards of a suit a seat
    has shown it lacks."""

    def worlds(self, t: FriendsTable, later: list[int]) -> list[tuple[Hands, Side]]:
        out: list[tuple[Hands, Side]] = []
        for _ in range(SEARCH_SAMPLES):
            world = sample_world(t, later, self.rng)
            mine = world.starters_side[t.seat]
            sides = [1.0 if side == mine else 0.0 for side in world.starters_side]
            out.append((world.hands, sides.__getitem__))
        return out


Hands = dict[int, list[Card]]
"""The later seats' hands in a sampled world."""
Side = Callable[[int], float]
"""How much a seat is on this seat's side in a sampled world (1 sure, 0 sure not)."""


def _trick_value(t: FriendsTable, option: list[Card], hands: Hands, side: Side) -> float:
    """The trick's points for this seat's side (minus for the enemies') when it plays
    `option` and the later seats answer from `hands` as greedy would, with the sides
    `side` gives."""
    trump = t.trump
    plays = [*t.plays, option]
    for seat, hand in hands.items():
        answers = follow_options(hand, plays[0], trump) if len(hand) >= len(plays[0]) else []
        if not answers:
            continue  # a sampled hand too short to follow (the sample is only a guess)
        winner = (t.leader + t.winner_index(plays)) % t.seats
        with_winner = (side(seat) > 0.5) == (side(winner) > 0.5)
        winning = [a for a in answers if t.winner_index([*plays, a]) == len(plays)]
        if not with_winner and winning:
            plays.append(min(winning, key=lambda a: sum(card_value(c, trump) for c in a)))
        else:
            plays.append(min(answers, key=lambda a: (card_points(a) * (-1 if with_winner
                                                                       else 1),
                                                     sum(trump.strength(c) for c in a))))
    winner = (t.leader + t.winner_index(plays)) % t.seats
    points = sum(card_points(p) for p in plays)
    return points * (2 * side(winner) - 1)


FRIENDS_PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomFriendsPlayer,
    "greedy": GreedyFriendsPlayer,
    "expert": FriendsPlayer,
    "ai1": SearchingFriendsPlayer,
    "ai2": SearchingFriendsPlayer,
    "ai3": SearchingFriendsPlayer,
    "ai": BeliefFriendsPlayer,
}
"""The Finding Friends player of each registry name (an experiment plays as the rule
player)."""


def friends_player(name: str, seed: int) -> Player:
    """The Finding Friends player that plays for player `name` (a registry name)."""
    return FRIENDS_PLAYERS.get(name, FriendsPlayer)(seed)


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
