"""A throwaway PostgreSQL server for the tests (a pytest plugin: see tests/conftest.py).

`pg_server` (session scope) runs ``initdb`` and ``pg_ctl start`` in a temporary folder,
listening on a Unix socket there only (nothing on TCP), as the ``postgres`` user when the
tests run as root (the server refuses root), and stops it at the end. `pg_url` gives each
test a database of its own. Without PostgreSQL (or psycopg) those tests skip with one line
saying how to run them; with ``TRACTOR_REQUIRE_POSTGRES=1`` (CI) that is a failure.

``TRACTOR_TEST_DATABASE=postgres`` makes the bot's end-to-end tests (tests/bot) keep their
games in PostgreSQL instead of an SQLite file.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.pg_server import PgServer, PgUnavailable
from tools.pg_server import start_server as _start

HOW_TO = ("PostgreSQL tests need PostgreSQL 15 (Debian: apt-get install postgresql) and"
          " psycopg (pip install -e '.[postgres]'); TRACTOR_REQUIRE_POSTGRES=1 makes them"
          " required")
REQUIRED = os.environ.get("TRACTOR_REQUIRE_POSTGRES") == "1"
BACKENDS = ("sqlite", "postgres")


def on_postgres() -> bool:
    """True when the bot tests should keep their games in PostgreSQL."""
    return os.environ.get("TRACTOR_TEST_DATABASE", "sqlite").lower() in ("postgres",
                                                                          "postgresql")


def start_server() -> PgServer:
    """`tools.pg_server.start_server`, or skip (fail when required) with one line."""
    try:
        return _start()
    except PgUnavailable as exc:
        unavailable(str(exc))
        raise


def unavailable(reason: str) -> None:
    """Skip (or, when required, fail) with one line."""
    message = f"{reason}: {HOW_TO}"
    if REQUIRED:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


_SHARED: list[PgServer] = []


def shared_server() -> PgServer:
    """The session's server, started on first use and stopped when the tests exit."""
    if not _SHARED:
        server = start_server()
        _SHARED.append(server)
        atexit.register(_remove, server)
    return _SHARED[0]


def _remove(server: PgServer) -> None:
    server.stop("immediate")
    shutil.rmtree(server.folder, ignore_errors=True)


def bot_database(tmp_path: Path) -> str | Path:
    """Where a bot test keeps its games: ``tractor.sqlite3`` in `tmp_path`, or with
    ``TRACTOR_TEST_DATABASE=postgres`` a new database on the session's server."""
    if on_postgres():
        return shared_server().new_database("bot")
    return tmp_path / "tractor.sqlite3"


@pytest.fixture(scope="session")
def pg_server() -> PgServer:
    """A throwaway PostgreSQL server for the whole session (see the module)."""
    return shared_server()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """The address of a new empty database on the session's server."""
    return pg_server.new_database()


@contextlib.contextmanager
def stopped(server: PgServer) -> Iterator[None]:
    """The server stopped for the block (fast shutdown: connections cut), then started
    again."""
    server.stop("fast")
    try:
        yield
    finally:
        server.start()
