"""The multi-process cluster soak (tools/soak_cluster.py): the short version in `make test`,
the long one in `make soak` (``-m slow``). Processes are killed, frozen and stopped while
their tables play; the checks are counts that must be 0, never timings."""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pg import unavailable

from tools import soak_cluster
from tools.pg_server import pg_bin
from tools.soak_cluster import Proc, Soak

ROOT = Path(__file__).resolve().parents[2]


def soak(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "tools.soak_cluster", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    out = done.stdout
    result: dict[str, object] = json.loads(out[out.index("{"):]) if "{" in out else {}
    assert done.returncode == 0, (done.stderr[-3000:], result.get("woken_stuck_stacks"))
    return result


def check(result: dict[str, object], kills: int) -> None:
    for key in ("missing_acknowledged", "duplicate_versions", "stale_commits",
                "shards_with_two_owners", "sequence_gaps_or_duplicates", "replay_mismatches",
                "rating_mismatches"):
        assert result[key] == 0, (key, result)
    assert result["woken_exit_status"] == 3, result["woken_stuck_stacks"]
    takeovers = result["takeover_s"]
    assert isinstance(takeovers, dict) and len(takeovers["crash"]) == kills
    assert isinstance(result["settled_hands_replayed"], int)
    assert result["settled_hands_replayed"] > 0
    assert isinstance(result["rated_hands"], int) and result["rated_hands"] > 0
    # Forwarded Type… submissions (issue 36): none lost, none applied twice, every player
    # told the truth; on PostgreSQL the owners listened for NOTIFY.
    for key in ("forwarded_applied_twice", "forwarded_told_applied_not_applied",
                "forwarded_told_try_again_applied", "forwarded_unanswered"):
        assert result[key] == 0, (key, result)
    outcomes = result["forwarded_outcomes"]
    assert isinstance(outcomes, dict) and outcomes.get("applied", 0) + outcomes.get(
        "refused", 0) > 0
    if result["notify_expected"]:
        assert isinstance(result["notify_listeners"], int) and result["notify_listeners"] > 0


def test_the_short_cluster_soak() -> None:
    check(soak("--short"), 3)


def test_the_short_cluster_soak_on_postgresql(pg_url: str) -> None:
    """The same faults with the clusters sharing one PostgreSQL database (issue 29's
    setting): leases, fencing and the saves on the server, its clock the lease clock."""
    check(soak("--short", "--database", pg_url), 3)


def test_the_short_availability_soak() -> None:
    """Issue 37's faults on a PostgreSQL server of the soak's own: a cluster frozen inside
    a save's and a renewal's transaction (woken: it writes nothing and exits fenced), the
    server down 2 s and 5 s (every table moves again), every backend ended twice. The
    timing targets are reported here (`make soak-cluster` checks them)."""
    if pg_bin() is None:
        unavailable("PostgreSQL is not installed")
    result = soak("--short", "--availability", "--targets", "report")
    for key in ("missing_acknowledged", "duplicate_versions", "stale_commits",
                "shards_with_two_owners", "sequence_gaps_or_duplicates", "replay_mismatches",
                "rating_mismatches"):
        assert result[key] == 0, (key, result)
    pauses, outages = result["pauses_inside"], result["outages"]
    assert isinstance(pauses, list) and [p["where"] for p in pauses] == ["save", "renewal"]
    assert all(p["woken_writes"] == 0 and p["woken_exit_status"] == 3 for p in pauses), \
        result["woken_stuck_stacks"]
    assert isinstance(outages, list) and [o["stuck_tables"] for o in outages] == [0, 0]
    assert result["availability_failures"] == []


@pytest.mark.slow
def test_the_cluster_soak() -> None:
    check(soak("--processes", "3", "--shards", "6", "--tables", "24", "--kills", "4"), 4)


def sleeper(name: str) -> Proc:
    """A stand-in worker that never exits by itself (nor writes its stacks)."""
    popen = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                             stdout=subprocess.PIPE, text=True)
    return Proc(name, [0], popen)


def test_a_failing_soak_leaves_no_worker_behind(tmp_path: Path) -> None:
    """A coordinator that fails kills its workers: one left behind held the caller's
    output open (its stderr is the soak's) and went on playing (a CI run waited 15 min)."""

    class Failing(Soak):
        async def run(self) -> dict[str, object]:
            self.procs["w0"] = sleeper("w0")
            raise RuntimeError("a fault of the coordinator")

    soak = Failing(argparse.Namespace(database=""), tmp_path)
    with pytest.raises(RuntimeError):
        asyncio.run(soak.drive())
    assert soak.procs["w0"].popen.poll() is not None


def test_a_woken_worker_that_does_not_exit_is_reported_and_killed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak_cluster, "WOKEN_EXIT", 0.2)
    monkeypatch.setattr(soak_cluster, "DUMP_POLLS", 1)  # a stand-in writes no stacks
    soak = Soak(argparse.Namespace(database=""), tmp_path)
    proc = sleeper("w1")
    status, _ = asyncio.run(soak.woken_exit(proc))
    assert status == -1 and proc.popen.poll() is not None
    assert soak.stuck == ["no stacks"]
