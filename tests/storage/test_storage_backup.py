"""Online backups: Store.backup and ``python -m bot.storage backup``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from storage_helpers import FakeClock, H, play_match

from bot.storage import Store
from bot.storage.sqlite.migrate import LATEST_VERSION

ROOT = Path(__file__).resolve().parents[2]


async def mid_match(store: Store) -> None:
    """Two tables in play: one mid-match, one in its lobby."""
    await play_match(store, guild=1, channel=10, match_key="M", players=(1, 2, 3, 4),
                     hands=[H("A", 40, "declarers", 1), H("A", 90, "opponents", 0)],
                     winner=None, end_table=False)
    await store.create_table(1, 11, 5, {"phase": "lobby", "seats": [5, None, None, None]})


async def assert_same_state(original: Store, copy_path: Path, clock: FakeClock) -> None:
    copy = await Store.open(copy_path, clock=clock)
    try:
        assert await copy.active_tables() == await original.active_tables()
        assert await copy.hand_record("M:2") == await original.hand_record("M:2")
        assert (await copy.hand_record("M:2")).actions  # type: ignore[union-attr]
        assert await copy.match_record("M") == await original.match_record("M")
        assert await copy.stats(1, 1, mode="teams") == await original.stats(1, 1, mode="teams")
    finally:
        await copy.close()


async def test_store_backup_mid_match_opens_with_same_tables(
    sqlite_store: Store, tmp_path: Path, clock: FakeClock
) -> None:
    store = sqlite_store
    await mid_match(store)
    dest = tmp_path / "backups" / "copy.sqlite3"
    info = await store.backup(dest)
    assert info.dest == dest and info.schema_version == LATEST_VERSION
    assert info.size == dest.stat().st_size
    assert not Path(f"{dest}-wal").exists()  # self-contained file
    await assert_same_state(store, dest, clock)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.storage", "backup", *args], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )


async def test_backup_cli(sqlite_store: Store, db_path: Path, tmp_path: Path,
                          clock: FakeClock) -> None:
    store = sqlite_store
    await mid_match(store)  # the store stays open: an online backup
    dest = tmp_path / "cli" / "copy.sqlite3"
    done = run_cli(str(dest), "--database", str(db_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and str(dest) in lines[0]
    assert f"schema version {LATEST_VERSION}" in lines[0]
    await assert_same_state(store, dest, clock)

    # refuses to overwrite without --force; DATABASE_PATH is the default source
    env = {**os.environ, "DATABASE_PATH": str(db_path)}
    again = run_cli(str(dest), env=env)
    assert again.returncode == 1 and "already exists" in again.stderr
    assert len(again.stderr.splitlines()) == 1
    forced = run_cli(str(dest), "--force", env=env)
    assert forced.returncode == 0, forced.stderr

    missing = run_cli(str(tmp_path / "x.sqlite3"), "--database", str(tmp_path / "none.sqlite3"))
    assert missing.returncode == 1 and "no database at" in missing.stderr
    assert not (tmp_path / "none.sqlite3").exists()
