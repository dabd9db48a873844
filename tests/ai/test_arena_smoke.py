"""A fast arena smoke test: a few duplicate deals, no illegal moves, same result twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ai_puzzle_support import replayed

from engine.game import Phase
from tools.arena import (
    HandRecord,
    compare,
    deal_setup,
    main,
    read_log,
    replay,
    report,
    run,
    summarize,
    team_of,
    wilson,
)


@pytest.mark.parametrize(("a", "b", "deals"), [
    ("greedy", "random", 2), ("expert", "ai1", 2), ("ai", "greedy", 1)])
def test_few_deals_are_legal_and_deterministic(a: str, b: str, deals: int) -> None:
    first = run(a, b, deals=deals, seed=11)
    second = run(a, b, deals=deals, seed=11)
    assert first["illegal_moves"] == 0
    for key in ("hands_won_a", "hands_won_a_ci", "level_share_a", "points_swing_a",
                "points_swing_a_ci", "illegal_moves"):
        assert first[key] == second[key]
    assert first["hands"] == 2 * deals
    assert set(first["p95_ms"]) == {"a", "b"}


def test_wilson_interval() -> None:
    low, high = wilson(60, 100)
    assert 0.50 < low < 0.51 and 0.69 < high < 0.70


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "random", "--b", "random", "--deals", "1", "--json"]) == 0
    assert '"illegal_moves": 0' in capsys.readouterr().out


def test_cli_takes_every_player_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("expert", "ai1", "easy", "normal"):
        assert main(["--a", name, "--b", "random", "--deals", "1", "--json"]) == 0
        assert f'"a": "{name}"' in capsys.readouterr().out


def test_the_log_has_every_deal_and_gives_the_same_summary(tmp_path: Path) -> None:
    path = tmp_path / "deals.jsonl"
    with path.open("w", encoding="utf-8") as log:
        summary = run("greedy", "random", deals=2, seed=3, log=log)
    deals = read_log(str(path))
    assert len(deals) == 2
    assert summarize("greedy", "random", deals) == summary


def test_cli_summarises_a_log_without_playing(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.jsonl"
    with path.open("w", encoding="utf-8") as log:
        summary = run("greedy", "random", deals=2, seed=3, log=log)
    with path.open("a", encoding="utf-8") as log:
        log.write("\n")  # a run stopped between deals
    args = ["--a", "greedy", "--b", "random", "--summary", str(path)]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == summary
    assert main(args) == 0
    assert capsys.readouterr().out == report(summary)
    assert "greedy vs random: 2 deals, 4 hands" in report(summary)


def test_a_stopped_run_resumes_from_its_log(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    whole = run("greedy", "random", deals=3, seed=5)
    path = tmp_path / "deals.jsonl"
    with path.open("w", encoding="utf-8") as log:
        run("greedy", "random", deals=1, seed=5, log=log)  # stopped after one deal
    args = ["--a", "greedy", "--b", "random", "--deals", "3", "--seed", "5", "--json"]
    assert main([*args, "--log", str(path), "--resume"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert len(read_log(str(path))) == 3
    for key in ("deals", "hands_won_a", "points_swing_a", "illegal_moves"):
        assert resumed[key] == whole[key]


def test_replay_shows_both_hands_and_its_actions_rebuild_them() -> None:
    text = replay("greedy", "random", seed=3, index=0, actions=True)
    lines = text.splitlines()
    assert lines[0] == "deal 0 of seed 3: level 2, starter 1"
    assert lines[3].startswith("bury ") and " || bury " in lines[3]
    rows = [line for line in lines if " || " in line]
    assert len(rows) >= 13  # the burial and at least 12 tricks (25 cards a hand)
    hand_seed, level, starter = deal_setup(3, 0)
    for header, actions in zip(lines[1:3], lines[-2:], strict=True):
        match = replayed(hand_seed, str(level), starter, json.loads(actions))
        assert match.phase is Phase.BETWEEN_HANDS
        assert match.hand is not None and match.hand.result is not None
        assert f"with {match.hand.result.opponent_points} opponents' points" in header


def test_cli_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "greedy", "--b", "random", "--seed", "3", "--replay", "0"]) == 0
    assert capsys.readouterr().out.startswith("deal 0 of seed 3:")


def _played(path: Path, a: str, b: str, deals: int, seed: int, side: str = "both"
            ) -> list[list[HandRecord]]:
    with path.open("w", encoding="utf-8") as log:
        run(a, b, deals=deals, seed=seed, log=log, side=side)
    return read_log(str(path))


def _outcome(record: HandRecord) -> tuple[int, int, int, str]:
    return record.a_team, record.declarer_team, record.opponent_points, record.side


def test_a_side_run_plays_the_same_hands_as_a_full_run(tmp_path: Path) -> None:
    full = _played(tmp_path / "full.jsonl", "greedy", "random", 3, 7)
    for side, declaring in (("declarers", True), ("opponents", False)):
        part = _played(tmp_path / f"{side}.jsonl", "greedy", "random", 3, 7, side)
        for index, (whole, hands) in enumerate(zip(full, part, strict=True)):
            assert len(hands) == 1
            (hand,) = hands
            starter = deal_setup(7, index)[2]
            assert (hand.a_team == team_of(starter)) is declaring
            assert (hand.declarer_team == hand.a_team) is declaring
            same = next(r for r in whole if r.a_team == hand.a_team)
            assert _outcome(hand) == _outcome(same)


def test_compare_counts_flips_both_ways(tmp_path: Path) -> None:
    base = _played(tmp_path / "base.jsonl", "greedy", "random", 4, 2)
    same = compare(base, base)
    assert same["up"] == same["down"] == 0 and same["hands_won_diff"] == 0.0
    assert same["hands"] == 8 and same["deals"] == 4
    flipped = [list(deal) for deal in base]
    first = base[0][0]
    flipped[0] = [HandRecord(first.a_team, first.declarer_team, first.opponent_points,
                             "opponents" if first.side == "declarers" else "declarers",
                             first.levels_gained, 0), base[0][1]]
    result = compare(base, flipped)
    assert (result["up"], result["down"]) == ((1, 0) if not first.a_won else (0, 1))
    assert result["hands_won_diff"] == (1 / 8 if not first.a_won else -1 / 8)
    low, high = result["hands_won_diff_ci"]
    assert low < result["hands_won_diff"] < high
    # a side run: the hands it did not play count as they were
    only = [[deal[0]] for deal in flipped]
    assert compare(base, only)["hands_won_diff"] == result["hands_won_diff"]


def test_cli_compares_a_log_with_a_base(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    base = tmp_path / "base.jsonl"
    _played(base, "greedy", "random", 2, 3)
    part = tmp_path / "part.jsonl"
    args = ["--a", "greedy", "--b", "random", "--deals", "2", "--seed", "3"]
    assert main([*args, "--side", "declarers", "--log", str(part),
                 "--compare", str(base)]) == 0
    out = capsys.readouterr().out
    assert "paired: 2 deals, 4 hands" in out and "+0.0%" in out
    assert main(["--a", "greedy", "--b", "random", "--summary", str(part), "--compare",
                 str(base), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[1])["up"] == 0


def test_the_two_halves_of_a_run_summarise_as_the_whole(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`--summary DECL OPP`: the `--side` halves of a run, joined deal by deal, are the run."""
    whole = tmp_path / "whole.jsonl"
    _played(whole, "greedy", "random", 3, 5)
    args = ["--a", "greedy", "--b", "random", "--deals", "3", "--seed", "5"]
    halves = []
    for side in ("declarers", "opponents"):
        half = tmp_path / f"{side}.jsonl"
        assert main([*args, "--side", side, "--log", str(half), "--json"]) == 0
        halves.append(str(half))
    capsys.readouterr()
    summary = ["--a", "greedy", "--b", "random", "--json", "--summary"]
    assert main([*summary, str(whole)]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert main([*summary, *halves, "--compare", str(whole)]) == 0
    joined, paired = capsys.readouterr().out.splitlines()
    for key in ("deals", "hands", "hands_won_a", "level_share_a", "illegal_moves"):
        assert json.loads(joined)[key] == expected[key]
    assert json.loads(paired)["hands_won_diff"] == 0
    assert main([*summary, str(whole), "--compare", *halves]) == 0  # a BASE kept in halves
    paired = capsys.readouterr().out.splitlines()[1]
    assert json.loads(paired)["hands_won_diff"] == 0
    assert json.loads(paired)["hands"] == expected["hands"]
