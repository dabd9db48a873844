"""`python -m tools.bench` runs and reports every figure (its shape, never its timings)."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path
from typing import Any

import pytest

from tools.bench import (
    SWEEP_HEADER,
    BenchConfig,
    _LagProbe,
    compare_row,
    main,
    run_bench,
    sweep_row,
)


@pytest.mark.asyncio
async def test_bench_reports_every_figure(tmp_path: Path) -> None:
    # without tokens (--no-tokens): the table messages by channel id, counted
    report = await run_bench(BenchConfig(tables=2, seconds=2.0, think=0.0, computer="greedy",
                                         database=str(tmp_path / "bench.sqlite3"),
                                         tokens=False))
    assert report["tables"] == 2 and report["humans"] == 2
    for key in ("play_to_commit_ms", "first_reply_ms", "loop_lag_ms", "pick_to_panel_ms",
                "play_to_panel_ms"):
        assert set(report[key]) == {"n", "p50", "p99", "max"}
    assert report["first_reply_ms"]["n"] > 0  # the people did press buttons
    assert report["moves"] > 0
    assert set(report["per_move"]) == {"loads", "reads", "parses", "saves", "renders"}
    assert set(report["cpu_s"]) == {"total", "loop_process", "think", "render", "workers",
                                    "discord_sim", "people_sim", "apply",
                                    "instrumentation", "gc"}
    for key in ("cpu_per_hand_s", "own_cpu_per_hand_s", "own_cpu_per_move_ms",
                "apply_per_move_ms", "own_over_apply", "load_average", "failures",
                "gc_pauses_ms", "phases", "lag_stacks", "worker_cpus"):
        assert key in report
    assert sum(report["phases"].values()) == 2
    assert "| 2 |" in sweep_row(report)
    for key in ("turn_notice_ms", "table_staleness_ms"):
        assert set(report[key]) == {"n", "p50", "p99", "max"}
    limits = report["global"]  # the calls against Discord's global limit, by kind
    assert limits["global_per_commit"] > 0 and limits["interaction_per_commit"] > 0
    assert limits["global_429"] == 0 and limits["limit"] is None
    assert "edit channel" in limits["global_by_kind"]
    assert report["unacknowledged"] == 0
    assert report["table_channels"]["edits_free_share"] == 0.0
    assert report["table_channels"]["edit channel id"] > 0
    assert compare_row(report).startswith("| none (off) |")


@pytest.mark.asyncio
async def test_the_table_messages_ride_the_tokens(tmp_path: Path) -> None:
    """With tokens (the default) the tables' messages go through the channels' live
    interaction tokens, and the bench says what share of their edits did."""
    report = await run_bench(BenchConfig(tables=2, seconds=2.0, think=0.0, computer="greedy",
                                         database=str(tmp_path / "bench.sqlite3")))
    channels = report["table_channels"]
    assert channels["edit token"] > 0 and channels["edits_free_share"] > 0.5, channels
    assert "edit channel" not in report["global"]["global_by_kind"]
    assert compare_row(report).startswith("| none (on) |")


def test_compare_runs_without_and_with_the_budget(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[BenchConfig] = []

    async def fake(config: BenchConfig) -> dict[str, object]:
        seen.append(config)
        return {"tables": config.tables}

    monkeypatch.setattr("tools.bench.run_bench", fake)
    assert main(["--compare", "--rest-budget", "0.9", "--limit", "1", "--action-delay", "1",
                 "--json"]) == 0
    assert [(c.rest_budget, c.limit, c.action_delay) for c in seen] == [
        (math.inf, 1.0, 1.0), (0.9, 1.0, 1.0)]
    seen.clear()
    assert main(["--compare-tokens", "--rest-budget", "0.9", "--limit", "1", "--json"]) == 0
    assert [(c.rest_budget, c.tokens) for c in seen] == [(0.9, False), (0.9, True)]


def test_bench_command_line_prints_json(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[BenchConfig] = []

    async def fake(config: BenchConfig) -> dict[str, object]:
        seen.append(config)
        return {"tables": config.tables}

    monkeypatch.setattr("tools.bench.run_bench", fake)
    assert main(["--tables", "3", "--hands", "2", "--json"]) == 0
    assert '"tables": 3' in capsys.readouterr().out
    assert seen[0].tables == 3 and seen[0].hands == 2


def test_sweep_prints_one_row_per_table_count(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[BenchConfig] = []
    entry = {"n": 1, "p50": 1.0, "p99": 2.0, "max": 2.0}

    async def fake(config: BenchConfig) -> dict[str, Any]:
        seen.append(config)
        return {"tables": config.tables, "humans": 2, "workers": 1, "seconds": 1.0,
                "warmup": config.warmup,
                "load_average": [1.0, 1.0, 1.0], "cpus": [0], "worker_cpus": [1],
                "moves": 10, "hands": 0, "moves_per_second": 10.0,
                "play_to_commit_ms": entry, "first_reply_ms": entry, "loop_lag_ms": entry,
                "pick_to_panel_ms": entry, "play_to_panel_ms": entry,
                "computer_moves_per_second": 1.0, "worker_core_share": 0.5,
                "cpu_per_hand_s": None, "own_cpu_per_hand_s": None,
                "own_cpu_per_move_ms": 1.0, "own_over_apply": 10.0, "apply_per_move_ms": 0.1,
                "per_move": {"loads": 1, "reads": 0, "parses": 0, "saves": 1, "renders": 1},
                "cpu_s": {"loop_process": 0.05, "workers": 0.1}, "failures": {},
                "phases": {"playing": config.tables}, "gc_pauses_ms": {}, "lag_stacks": []}

    monkeypatch.setattr("tools.bench.run_bench", fake)
    assert main(["--sweep", "1,3", "--pin", "--seconds", "5", "--warmup", "2"]) == 0
    out = capsys.readouterr().out
    assert [c.tables for c in seen] == [1, 3]
    assert all(c.loop_cpus == (0,) and c.worker_cpus == (1,) and c.workers == 1
               and c.warmup == 2 for c in seen)
    assert SWEEP_HEADER in out
    rows = [line for line in out.splitlines() if line.startswith("| 1 |")
            or line.startswith("| 3 |")]
    assert len(rows) == 2 and "5.0 ms" in rows[0]  # loop CPU per move: 50 ms / 10 moves


async def test_lag_probe_names_what_held_the_loop() -> None:
    with _LagProbe(asyncio.get_running_loop(), every=0.01, threshold=0.01,
                   sample=0.002) as probe:
        await asyncio.sleep(0)  # SimCord is not running: the loop's own timers are real
        for _ in range(3):
            _hold_the_loop()
            await asyncio.sleep(0.05)
    assert max(probe.lags) >= 0.1
    assert any("_hold_the_loop" in " ".join(stack) for stack in probe.stacks)


def _hold_the_loop() -> None:
    time.sleep(0.4)  # blocks the loop: the probe's callback runs at least 0.3 s late
