"""The Finding Friends belief (issue 40): sampled worlds keep the facts the table showed
(voids, counts), give each open call's copy to a seat that may hold it and put that seat on
the starter's side; `ai`'s Friends player searches such worlds and stays legal."""

from __future__ import annotations

import random

from engine.actions import Play, StartHand
from engine.ai.friends import BeliefFriendsPlayer, SearchingFriendsPlayer
from engine.ai.friends_belief import holders, sample_world
from engine.ai.friends_know import FriendsTable
from engine.ai.moves import follow_options
from engine.ai.players import Player
from engine.ai.registry import ByMode, make_player
from engine.cards import Card
from engine.game import Match, Phase
from engine.rules import Mode, RuleSet
from engine.views import PlayerView


def follow_views(seed: int) -> list[PlayerView]:
    """Views of seats about to follow, in a 6-seat hand played by `expert`."""
    match = Match.new(RuleSet(mode=Mode.FRIENDS, players=6))
    match, _ = match.apply(StartHand(seed))
    players = [make_player("expert", s) for s in range(6)]
    found = []
    while match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
        hand = match.hand
        assert hand is not None
        seat = min(s for s in range(6) if s not in hand.responded) \
            if hand.phase is Phase.DECLARING else hand.turn
        assert seat is not None
        view = match.view_for(seat)
        if view.public.phase is Phase.PLAYING and view.lead is not None:
            found.append(view)
        match, _ = match.apply(players[seat].decide(view))
    return found


def test_worlds_keep_the_facts_and_the_called_copy_makes_a_friend() -> None:
    rng = random.Random(3)
    checked = called = 0
    for view in follow_views(11)[::7]:
        t = FriendsTable(view)
        later = t.later()
        if not later:
            continue
        calls = holders(t)
        for _ in range(4):
            world = sample_world(t, later, rng)
            for seat in later:
                hand = world.hands[seat]
                assert len(hand) == t.left[seat]
                assert not {t.trump.suit_index(c) for c in hand} & t.void[seat]
                assert all(world.starters_side[s] for s in t.known)
            for card, seats, _ in calls:
                friends = [s for s in seats if world.starters_side[s]]
                assert friends, "a holder of the called copy is drawn"
                in_hands = [s for s in friends if s in later and card in world.hands[s]]
                called += bool(in_hands)
            checked += 1
    assert checked > 5 and called > 0


def test_strong_plays_friends_with_the_belief_and_legally() -> None:
    assert isinstance(friends_of("strong"), BeliefFriendsPlayer)
    assert type(friends_of("ai2")) is SearchingFriendsPlayer  # the frozen ones keep theirs
    views = follow_views(12)
    assert len(views) > 20
    for view in views[::5]:
        action = BeliefFriendsPlayer(4).decide(view)
        assert isinstance(action, Play) and action.cards in {tuple(o) for o in options(view)}
        assert BeliefFriendsPlayer(4).decide(view) == action  # deterministic


def friends_of(name: str) -> Player:
    player = make_player(name, 1)
    assert isinstance(player, ByMode)
    return player.players[Mode.FRIENDS]


def options(view: PlayerView) -> list[list[Card]]:
    """Every legal follow of the seat to play."""
    assert view.lead is not None and view.public.trump is not None
    return follow_options(view.hand, view.lead, view.public.trump)
