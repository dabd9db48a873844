"""Long Finding Friends self-play of the computer players (`make soak`): 50 hands for every
N 4–8 and D 2–4 with mixed players, and whole matches to the end (F6); no illegal move."""

from __future__ import annotations

import random

import pytest

from engine.ai import CHOICES, make_player
from engine.game import Match, Phase
from tools.friends_arena import friends_rules, play_hand

pytestmark = pytest.mark.slow

NAMES = list(CHOICES)


@pytest.mark.parametrize("players", range(4, 9))
@pytest.mark.parametrize("decks", (2, 3, 4))
def test_long_self_play_is_legal(players: int, decks: int) -> None:
    rules = friends_rules(players, decks)
    rng = random.Random(f"ff-soak:{players}:{decks}")
    match = Match.new(rules)
    illegal = 0
    for hand in range(50):
        if hand % 10 == 0:  # a new mix of players now and then
            team = [make_player(rng.choice(NAMES), rng.getrandbits(16))
                    for _ in range(players)]
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        match, outcome = play_hand(match, rng.getrandbits(63), team)
        illegal += outcome.illegal
    assert illegal == 0


@pytest.mark.parametrize("players", range(4, 9))
@pytest.mark.parametrize("mixed", (False, True))
def test_whole_matches_are_played_to_the_end(players: int, mixed: bool) -> None:
    """Whole matches until a seat passes A (F6): the rule player everywhere, or every other
    seat random."""
    rules = friends_rules(players)
    team = [make_player("random" if mixed and s % 2 else "strong", s) for s in range(players)]
    rng = random.Random(f"ff-whole:{players}:{mixed}")
    match = Match.new(rules)
    hands = illegal = 0
    while match.phase is not Phase.MATCH_OVER:
        match, outcome = play_hand(match, rng.getrandbits(63), team)
        hands += 1
        illegal += outcome.illegal
        assert hands < 400, "the match should have ended"
    assert illegal == 0 and match.winner is not None
