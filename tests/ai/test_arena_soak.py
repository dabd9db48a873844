"""Long arena runs against the issue's targets (`make soak`; excluded from `make test`)."""

from __future__ import annotations

import pytest

from engine.arena import run

pytestmark = pytest.mark.slow


def _legal_and_fast(summary: dict[str, object]) -> None:
    assert summary["illegal_moves"] == 0
    p95 = summary["p95_ms"]
    worst = summary["max_ms"]
    assert isinstance(p95, dict) and isinstance(worst, dict)
    assert max(p95.values()) <= 300
    assert max(worst.values()) <= 1500


def test_greedy_beats_random() -> None:
    summary = run("greedy", "random", deals=150, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.75
    _legal_and_fast(summary)


def test_ai_crushes_random() -> None:
    summary = run("ai", "random", deals=100, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.95
    assert summary["level_share_a"] >= 0.98
    _legal_and_fast(summary)


def test_ai_beats_greedy() -> None:
    summary = run("ai", "greedy", deals=150, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.60
    assert summary["hands_won_a_ci"][0] > 0.55
    assert summary["points_swing_a_ci"][0] > 0
    _legal_and_fast(summary)
