"""Fixtures for storage tests: real databases (SQLite files under tmp_path, PostgreSQL
databases on the session's throwaway server), a controllable clock.

`store` is the storage contract: every test that takes it runs on both backends."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# Make the repository importable when pytest runs without an installed package.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pg import BACKENDS  # noqa: E402
from storage_helpers import FakeClock  # noqa: E402

from bot.storage import Store  # noqa: E402


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tractor.sqlite3"


@pytest.fixture(params=BACKENDS)
def target(request: pytest.FixtureRequest, db_path: Path) -> str | Path:
    """Where a test's database is: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return db_path
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
async def store(target: str | Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(target, clock=clock)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store(db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    """A store on an SQLite file, for what only SQLite has (file backups, its tracing)."""
    s = await Store.open(db_path, clock=clock)
    try:
        yield s
    finally:
        await s.close()
