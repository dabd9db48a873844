"""Every computer player decides legally in Finding Friends: seeded self-play of whole hands
for every table size (N 4–8, D 2–4), the rule player in every seat and mixed with random,
and the friends arena (legal, ahead of its baselines; decision times are its report). Longer runs:
`test_friends_ai_soak.py` (`make soak`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import Action, CallFriends
from engine.ai import CHOICES, make_player
from engine.ai.friends import FriendsPlayer, RandomFriendsPlayer
from engine.ai.players import Player
from engine.ai.registry import ByMode
from engine.friends import FriendCall
from engine.game import Match, Phase
from engine.rules import FixedTrump, Follow, Mode, ThrowRuff
from engine.views import PlayerView
from tools.friends_arena import friends_rules, play_hand, run

NAMES = list(CHOICES)
TABLES = [(4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (4, 3), (6, 2), (5, 4), (8, 3), (7, 4)]
"""(players, decks): every N with its default decks, and other deck counts."""


def play_match_hands(players: int, decks: int, team: list[Player], hands: int,
                     seed: int, **options: Any) -> int:
    """Play `hands` hands (new matches as needed); the illegal moves made."""
    rules = friends_rules(players, decks, **options)
    seeds = random.Random(f"ff-ai:{seed}")
    match = Match.new(rules)
    illegal = 0
    for _ in range(hands):
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        match, outcome = play_hand(match, seeds.getrandbits(63), team)
        illegal += outcome.illegal
    return illegal


@pytest.mark.parametrize(("players", "decks"), TABLES)
def test_the_rule_player_in_every_seat_plays_legally(players: int, decks: int) -> None:
    team = [make_player("strong", s) for s in range(players)]
    assert play_match_hands(players, decks, team, 2, players * 10 + decks) == 0


@pytest.mark.parametrize(("players", "decks"), TABLES[:5])
def test_every_player_mixed_with_random_plays_legally(players: int, decks: int) -> None:
    rng = random.Random(f"mix:{players}:{decks}")
    team = [make_player(rng.choice(NAMES), s) for s in range(players)]
    team[rng.randrange(players)] = make_player("random", 99)
    assert play_match_hands(players, decks, team, 2, players + decks) == 0


@pytest.mark.parametrize("options", [
    {"follow": Follow.SUIT_ONLY}, {"throw_ruff": ThrowRuff.EVERY_UNIT},
    {"throw_ruff": ThrowRuff.HIGHEST_CARD, "no_trump_allowed": False},
    {"fixed_trump": FixedTrump.HEARTS, "take_backs": True, "throw_penalty": 10}])
def test_house_rules_are_played_legally(options: dict[str, Any]) -> None:
    team = [make_player("strong" if s % 2 else "random", s) for s in range(6)]
    assert play_match_hands(6, 3, team, 2, 5, **options) == 0


@pytest.mark.parametrize("name", NAMES)
def test_make_player_dispatches_friends_views(name: str) -> None:
    player = make_player(name, 1)
    match = Match.new(friends_rules(6))
    _, outcome = play_hand(match, 7, [player] + [make_player("random", s) for s in range(5)])
    assert outcome.illegal == 0


def test_the_composition_keeps_the_teams_players_as_they_are() -> None:
    """The four-player game still gets the player's own decisions."""
    from engine.actions import StartHand

    match, _ = Match.new().apply(StartHand(3))
    view: PlayerView = match.view_for(0)
    for name in NAMES:
        composed = make_player(name, 2)
        assert isinstance(composed, ByMode)
        plain = type(composed.players[Mode.TEAMS])(2)
        assert composed.decide(view) == plain.decide(view)


def test_random_and_rule_players_call_exactly_f_friends() -> None:
    match = Match.new(friends_rules(8))
    for player in (FriendsPlayer(0), RandomFriendsPlayer(0)):
        spy = _CallSpy(player)
        play_hand(match, 11, [spy] * 8)
        assert spy.calls and all(len(calls) == 3 for calls in spy.calls)


class _CallSpy:
    def __init__(self, player: Player) -> None:
        self.player = player
        self.calls: list[tuple[FriendCall, ...]] = []

    def decide(self, view: PlayerView) -> Action:
        action = self.player.decide(view)
        if isinstance(action, CallFriends):
            self.calls.append(action.calls)
        return action


def test_the_arena_is_legal_quick_and_the_rule_player_beats_its_baselines() -> None:
    for baseline in ("random", "selfish"):
        found = run("normal", baseline, 5, 0, 4, 1)  # the rule player
        assert found["illegal_moves"] == 0
        assert found["a_starter_points"] > found["b_starter_points"]
