"""The lock benchmark runs (figures are printed, not asserted: see its docstring)."""

from __future__ import annotations

import pytest

from tools import bench_lock


def test_bench_lock_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    bench_lock.main(["--hold", "0.3", "--write-every", "0.1", "--tables", "3", "--moves", "10",
                     "--doc-size", "300"])
    out = capsys.readouterr().out
    assert "load_table (no lock)" in out and "save_table (no lock)" in out
    assert "event-loop CPU" in out and "reads during 0.3 s lock" in out
    assert out.count("move at another table") == 4
