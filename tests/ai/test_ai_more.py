"""The `ai-more` trial: `ai` itself unchanged, the variant only searching longer."""

from __future__ import annotations

from engine.ai.registry import EXPERIMENTS, PLAYERS, make_player
from engine.ai.search import MAX_SAMPLES, MORE_WORK, WORK, AiPlayer, MoreAiPlayer


def test_ai_keeps_its_work() -> None:
    assert PLAYERS["ai"] is AiPlayer
    assert (AiPlayer.work, AiPlayer.max_samples) == (WORK, MAX_SAMPLES)


def test_ai_more_only_searches_longer() -> None:
    assert EXPERIMENTS["ai-more"] is MoreAiPlayer
    assert MORE_WORK > 1
    assert MoreAiPlayer.work == round(WORK * MORE_WORK)
    assert MoreAiPlayer.max_samples == round(MAX_SAMPLES * MORE_WORK)
    assert MoreAiPlayer.value is AiPlayer.value
    assert MoreAiPlayer.declarer_work == AiPlayer.declarer_work
    assert isinstance(make_player("ai-more", 3), AiPlayer)
