"""Fixtures for storage tests: real SQLite files under tmp_path, a controllable clock."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

# Make the repository importable when pytest runs without an installed package.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from storage_helpers import FakeClock  # noqa: E402

from bot.storage import Store  # noqa: E402


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tractor.sqlite3"


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    try:
        yield s
    finally:
        await s.close()
