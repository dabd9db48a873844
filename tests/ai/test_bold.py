"""The experiments that let the search override the expert rules more readily (issue 40's
third attempt): built by `make_player`, legal, and asking less than `ai` of a challenger."""

from __future__ import annotations

import pytest

from engine.ai import AiPlayer, make_player
from engine.ai.frozen import Ai3Player
from engine.ai.registry import EXPERIMENTS, ByMode
from engine.ai.search import clear_winner
from engine.rules import Mode
from tools.arena import run

BOLD = ("ai-bold", "ai-bolder", "ai-bold-loose")


@pytest.mark.parametrize("name", BOLD)
def test_built_by_name_with_settings_less_demanding_than_ai(name: str) -> None:
    player = make_player(name, 1)
    assert isinstance(player, ByMode)
    search = player.players[Mode.TEAMS]
    assert isinstance(search, AiPlayer) and type(search) is EXPERIMENTS[name]
    assert (search.bias, search.margin) != (AiPlayer.bias, AiPlayer.margin)
    assert search.bias <= AiPlayer.bias and search.margin <= AiPlayer.margin


def test_the_frozen_players_keep_ais_settings() -> None:
    assert (Ai3Player.bias, Ai3Player.margin) == (AiPlayer.bias, AiPlayer.margin) == (1.0, 1.5)


def test_a_narrow_lead_overrides_only_the_bold() -> None:
    """A challenger 1.0 point a deal ahead with a standard error of 0.2 (over 10 deals):
    not clear for `ai` (it asks 1.0 point and more), clear for each bold setting."""
    home = [0.0] * 10
    ahead = [1.6, 0.4] * 5
    assert clear_winner([home, ahead], 0, AiPlayer.bias, AiPlayer.margin) == 0
    for name in BOLD:
        kind = EXPERIMENTS[name]
        assert isinstance(kind, type) and issubclass(kind, AiPlayer)
        assert clear_winner([home, ahead], 0, kind.bias, kind.margin) == 1


@pytest.mark.parametrize("name", BOLD)
def test_a_duplicate_deal_is_played_legally(name: str) -> None:
    assert run(name, "greedy", deals=1, seed=17)["illegal_moves"] == 0
