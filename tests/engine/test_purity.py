"""docs/architecture.md: engine/ is pure rules — no Discord, images, storage or event loop."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BANNED = ("discord", "PIL", "aiosqlite", "sqlite3", "asyncio")
RUFF = Path(sys.executable).parent / "ruff"

PROBE = """
import importlib, json, pkgutil, sys
import engine
names = ["engine"]
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if info.name.rsplit(".", 1)[-1] == "__main__":
        continue
    importlib.import_module(info.name)
    names.append(info.name)
banned = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.argv[1])))
print(json.dumps({"modules": names, "banned": banned}))
"""


def test_purity_importing_engine_and_all_submodules_pulls_in_no_banned_module() -> None:
    """In a fresh interpreter: `import engine` and every engine submodule, then check that
    none of discord, PIL, aiosqlite, sqlite3, asyncio got imported."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(BANNED)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert "engine.cards" in result["modules"] and "engine.follow" in result["modules"]
    assert result["banned"] == [], result


def _ruff(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    if not RUFF.exists():
        pytest.skip("ruff is not installed in this environment")
    return subprocess.run([str(RUFF), *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=60)


def test_purity_ruff_check_engine_passes() -> None:
    """`ruff check engine` (engine/ruff.toml: the project rules plus banned-api) is clean."""
    run = _ruff("check", "engine")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("module", [*BANNED, "bot", "time"])
def test_purity_ruff_config_really_bans(module: str) -> None:
    """The banned-api config is live for files under engine/: a probe importing a banned
    module is flagged with TID251 (so the check above cannot pass vacuously)."""
    run = _ruff("check", "--select", "TID251", "--stdin-filename", "engine/_purity_probe.py",
                "-", stdin=f"import {module}\n")
    assert run.returncode == 1 and "TID251" in run.stdout, run.stdout + run.stderr
