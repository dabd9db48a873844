"""The decision screen (`tools.decision_screen`) with cheap players: a variant that is the
base gains exactly nothing; one that decides otherwise is judged where it differs; a log
resumes and summarises."""

from __future__ import annotations

import json
from pathlib import Path

from tools.decision_screen import main, screen_deal, summarize


def test_the_base_against_itself_never_differs() -> None:
    line = screen_deal("expert", ["expert"], "expert", "greedy", 7, 0)
    assert line["positions"] > 20
    assert line["differ"] == {"expert": 0}
    assert line["gain"] == {"expert": 0.0} and line["wins"] == {"expert": 0}


def test_a_different_player_is_judged_where_it_differs() -> None:
    lines = [screen_deal("expert", ["greedy"], "expert", "greedy", 7, i) for i in range(2)]
    assert sum(line["differ"]["greedy"] for line in lines) > 0
    assert all(abs(line["wins"]["greedy"]) <= line["differ"]["greedy"] for line in lines)
    summary = summarize(lines)
    assert summary["deals"] == 2
    mean, low, high = summary["greedy"]["gain"]
    assert low <= mean <= high
    assert set(summary["ms"]) == {"expert", "greedy"}


def test_a_log_resumes(tmp_path: Path, capsys: object) -> None:
    log = tmp_path / "s.jsonl"
    args = ["--base", "expert", "--try", "greedy", "--path", "greedy", "--b", "expert",
            "--seed", "3", "--log", str(log)]
    assert main([*args, "--deals", "1"]) == 0
    first = log.read_text()
    assert main([*args, "--deals", "2"]) == 0
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and lines[0] == first.strip()
    assert main(["--summary", str(log)]) == 0
    assert json.loads(log.read_text().splitlines()[1])["deal"] == 1
