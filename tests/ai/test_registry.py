"""Players by name and by strength level (what `/tractor addbot level:` builds)."""

from __future__ import annotations

import pytest

from engine.ai import (
    DEFAULT_LEVEL,
    LEVEL_PLAYERS,
    LEVELS,
    PLAYERS,
    Ai1Player,
    AiPlayer,
    ExpertPlayer,
    GreedyPlayer,
    make_player,
    player_name,
)
from engine.ai.players import Player
from engine.ai.registry import CHOICES, ByMode
from engine.rules import Mode


def four_player(player: Player) -> Player:
    """The player a `make_player` player plays the four-player game with."""
    assert isinstance(player, ByMode)
    return player.players[Mode.TEAMS]


def test_names_and_levels() -> None:
    assert set(PLAYERS) == {"random", "greedy", "expert", "ai1", "ai"}
    assert LEVELS == ("easy", "normal", "strong")
    assert DEFAULT_LEVEL == "strong" and LEVEL_PLAYERS[DEFAULT_LEVEL] == "ai"


@pytest.mark.parametrize(("given", "kind"), [
    ("easy", GreedyPlayer), ("normal", ExpertPlayer), ("strong", AiPlayer),
    ("ai", AiPlayer), ("ai1", Ai1Player), (" Expert ", ExpertPlayer), ("STRONG", AiPlayer)])
def test_make_player_takes_names_and_levels(given: str, kind: type) -> None:
    assert isinstance(four_player(make_player(given, 3)), kind)


def test_the_default_is_the_strongest() -> None:
    assert isinstance(four_player(make_player()), AiPlayer)
    assert player_name("Normal") == "expert"


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match="choose from random, greedy, expert, ai1, ai, easy"):
        make_player("smart", 0)


def test_experiments_are_built_but_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.ai.registry import EXPERIMENTS
    monkeypatch.setitem(EXPERIMENTS, "ai-trial", AiPlayer)
    assert "ai-trial" not in PLAYERS
    assert isinstance(four_player(make_player("ai-trial", 1)), AiPlayer)
    with pytest.raises(ValueError) as refused:
        make_player("smart", 0)
    assert "ai-trial" not in str(refused.value)


def test_ai_draws_from_the_learned_belief_and_the_frozen_players_are_kept() -> None:
    from engine.ai.belief import learned_belief
    from engine.ai.frozen import Ai2Player, Ai3Player
    from engine.ai.inference import infer
    from engine.ai.search import AiOthersPlayer
    assert AiPlayer.believe is learned_belief
    assert isinstance(four_player(make_player("ai2", 1)), Ai2Player)
    assert Ai2Player.believe is infer and Ai2Player.work == 2800
    assert isinstance(four_player(make_player("ai3", 1)), Ai3Player)
    assert Ai3Player.believe is learned_belief
    assert AiPlayer.others_temper == 0  # issue 40's model of the others: an experiment
    assert isinstance(four_player(make_player("ai-others", 1)), AiOthersPlayer)
    assert AiOthersPlayer.others_temper > 0 and AiOthersPlayer.others_pool > 1
    assert Ai2Player.others_temper == Ai3Player.others_temper == 0


def test_the_others_experiments_are_named_variants() -> None:
    from engine.ai.search import AiOthersAllPlayer, AiOthersLightPlayer, AiOthersPlayer
    light = four_player(make_player("ai-others-light", 1))
    whole = four_player(make_player("ai-others-all", 1))
    assert isinstance(light, AiOthersLightPlayer) and isinstance(whole, AiOthersAllPlayer)
    assert (light.others_temper, light.others_pool) == (0.5, 2)
    assert whole.others_history > AiOthersPlayer.others_history
    assert "ai-others-light" not in CHOICES and "ai-others-all" not in CHOICES
    assert "ai2" not in PLAYERS and "ai3" not in PLAYERS
