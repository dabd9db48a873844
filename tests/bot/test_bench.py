"""`python -m bot.bench` runs and reports every figure (its shape, never its timings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.bench import BenchConfig, main, run_bench


@pytest.mark.asyncio
async def test_bench_reports_every_figure(tmp_path: Path) -> None:
    report = await run_bench(BenchConfig(tables=2, seconds=2.0, think=0.0, computer="greedy",
                                         database=str(tmp_path / "bench.sqlite3")))
    assert report["tables"] == 2 and report["humans"] == 2
    for key in ("play_to_commit_ms", "first_reply_ms", "loop_lag_ms"):
        assert set(report[key]) == {"n", "p50", "p99", "max"}
    assert report["first_reply_ms"]["n"] > 0  # the people did press buttons
    assert report["moves"] > 0
    assert set(report["per_move"]) == {"loads", "reads", "parses", "saves", "renders"}
    assert set(report["cpu_s"]) == {"total", "think", "render", "workers", "discord_sim",
                                  "people_sim", "apply"}
    for key in ("cpu_per_hand_s", "own_cpu_per_hand_s", "own_cpu_per_move_ms",
                "apply_per_move_ms", "own_over_apply", "load_average", "failures"):
        assert key in report


def test_bench_command_line_prints_json(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[BenchConfig] = []

    async def fake(config: BenchConfig) -> dict[str, object]:
        seen.append(config)
        return {"tables": config.tables}

    monkeypatch.setattr("bot.bench.run_bench", fake)
    assert main(["--tables", "3", "--hands", "2", "--json"]) == 0
    assert '"tables": 3' in capsys.readouterr().out
    assert seen[0].tables == 3 and seen[0].hands == 2
