"""Each level plays Finding Friends at its own strength (issue 27): the registry composes a
four-player player and a Friends player by the mode a view plays, nothing patched; easy,
normal and strong decide differently, and every decision is legal (the engine takes it)."""

from __future__ import annotations

from engine.actions import Action, StartHand
from engine.ai.registry import LEVELS, ByMode, make_player
from engine.game import Match, Phase
from engine.rules import RuleSet


def decisions(level: str, rules: RuleSet, hands: int, seed: int) -> list[Action]:
    """Every decision of `hands` seeded hands with `level` at every seat (the engine
    refuses an illegal one)."""
    match = Match.new(rules)
    players = [make_player(level, seed * 10 + seat) for seat in range(match.seats)]
    made: list[Action] = []
    for number in range(hands):
        if match.phase is Phase.MATCH_OVER:
            match = Match.new(rules)
        match, _ = match.apply(StartHand(seed * 1000 + number))
        while match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER):
            hand = match.hand
            assert hand is not None
            seat = min(s for s in range(match.seats) if s not in hand.responded) \
                if hand.phase is Phase.DECLARING else hand.turn
            assert seat is not None
            action = players[seat].decide(match.view_for(seat))
            made.append(action)
            match, _ = match.apply(action)
    return made


def test_each_level_plays_friends_its_own_way() -> None:
    rules = RuleSet(mode="friends", players=6)
    played = {level: decisions(level, rules, 2, 7) for level in LEVELS}
    assert played["easy"] != played["normal"] != played["strong"] != played["easy"]


def test_players_are_composed_by_mode_not_patched() -> None:
    for level in LEVELS:
        player = make_player(level, 1)
        assert isinstance(player, ByMode) and "decide" not in vars(player)
        assert {mode.value for mode in player.players} == {"teams", "friends"}
