"""Long arena runs against the issue's targets (`make soak`; excluded from `make test`).

Issue 10's figures: duplicate deals, at least 300 each; `ai` wins at least 60% of hands
against `ai1` (95% interval above 55%), 60% against `expert` and 85% against `greedy`;
no illegal move; CPU per decision p95 <= 300 ms and max <= 1.5 s.
"""

from __future__ import annotations

import pytest

from tools.arena import run

pytestmark = pytest.mark.slow

DEALS = 300
NOT_YET = pytest.mark.xfail(
    strict=False,
    reason="issue 10's two unmet targets (blocked, 2026-12-02): at seed 2026, 300 deals each, "
           "`ai` wins 54.2% of hands vs ai1 [50.2, 58.1] and 80.8% vs greedy [77.5, 83.8]; "
           "an `ai` shown the true deal wins 72.3% and 89.0%")


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


def test_ai_is_legal_and_fast() -> None:
    """Met: no illegal move, CPU per decision p95 <= 300 ms and max <= 1.5 s."""
    _legal_and_fast(run("ai", "ai1", deals=60, seed=2026, jobs=2))


@NOT_YET
def test_ai_beats_greedy() -> None:
    summary = run("ai", "greedy", deals=DEALS, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.85
    _legal_and_fast(summary)


@NOT_YET
def test_ai_beats_ai1() -> None:
    summary = run("ai", "ai1", deals=DEALS, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.60
    assert summary["hands_won_a_ci"][0] > 0.55
    _legal_and_fast(summary)


def test_ai_beats_expert() -> None:
    """Met: 62.0% at seed 2026 [58.1, 65.8]."""
    summary = run("ai", "expert", deals=DEALS, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.60
    _legal_and_fast(summary)


def test_expert_beats_greedy() -> None:
    summary = run("expert", "greedy", deals=150, seed=2026, jobs=2)
    assert summary["hands_won_a"] >= 0.70
    _legal_and_fast(summary)
