"""`python -m tools.selfplay` and `python -m tools.bench_engine`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

from tools import bench_engine as bench
from tools import selfplay

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"seed", "trump", "starter", "declarer_trick_points", "opponent_trick_points",
        "kitty_points", "kitty_multiplier", "opponent_points", "result", "tricks"}


def run_main(main, *args: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(args)) == 0
    return out.getvalue()


def test_selfplay_prints_one_json_object_per_hand():
    lines = run_main(selfplay.main, "--hands", "12", "--seed", "3").splitlines()
    assert len(lines) == 12
    for line in lines:
        record = json.loads(line)
        assert set(record) >= KEYS
        assert record["declarer_trick_points"] + record["opponent_trick_points"] \
            + record["kitty_points"] == 200
        assert record["result"][0] in ("declarers", "opponents")
        assert record["trump"][-1] in "SHDC" or record["trump"].endswith("NT")


def test_selfplay_output_is_byte_identical_for_the_same_arguments():
    first = run_main(selfplay.main, "--hands", "8", "--seed", "42")
    assert run_main(selfplay.main, "--hands", "8", "--seed", "42") == first
    assert run_main(selfplay.main, "--hands", "8", "--seed", "43") != first


def test_selfplay_as_a_module_in_a_fresh_interpreter():
    args = [sys.executable, "-m", "tools.selfplay", "--hands", "3", "--seed", "42"]
    first = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert first == run_main(selfplay.main, "--hands", "3", "--seed", "42")


def test_selfplay_accepts_rule_variants():
    lines = run_main(selfplay.main, "--hands", "6", "--seed", "1", "--rules",
                     '{"no_bid": "reveal_until_level", "kitty_multiplier": "flat_2"}')
    assert all(json.loads(line)["kitty_multiplier"] == 2 for line in lines.splitlines())


def test_bench_runs_small():
    out = run_main(bench.main, "--positions", "30", "--hands", "5")
    for name in ("decompose", "follow_error", "check_throw", "trick_winner", "hands/s"):
        assert name in out
