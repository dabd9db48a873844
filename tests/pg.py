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
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest

HOW_TO = ("PostgreSQL tests need PostgreSQL 15 (Debian: apt-get install postgresql) and"
          " psycopg (pip install -e '.[postgres]'); TRACTOR_REQUIRE_POSTGRES=1 makes them"
          " required")
REQUIRED = os.environ.get("TRACTOR_REQUIRE_POSTGRES") == "1"
BACKENDS = ("sqlite", "postgres")
HBA = "local all tractor_pw scram-sha-256\nlocal all all trust"
"""Unix socket only; the role tractor_pw must give its password (the startup tests)."""


def on_postgres() -> bool:
    """True when the bot tests should keep their games in PostgreSQL."""
    return os.environ.get("TRACTOR_TEST_DATABASE", "sqlite").lower() in ("postgres",
                                                                          "postgresql")


def pg_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (PostgreSQL 15 preferred), or None."""
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if folder.parent.name == "15" and (folder / "pg_ctl").exists():
            return folder
    found = sorted(p for p in Path("/usr/lib/postgresql").glob("*/bin") if
                   (p / "pg_ctl").exists())
    if found:
        return found[-1]
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def unavailable(reason: str) -> None:
    """Skip (or, when required, fail) with one line."""
    message = f"{reason}: {HOW_TO}"
    if REQUIRED:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@dataclass
class PgServer:
    """A running throwaway server."""

    folder: Path
    bin: Path
    user: str | None
    """The user the server runs as (None: this process's user)."""
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def socket_dir(self) -> Path:
        return self.folder / "socket"

    def url(self, database: str = "postgres", *, user: str = "postgres",
            password: str | None = None) -> str:
        """A ``postgresql://`` address of ``database`` over the Unix socket."""
        auth = user if password is None else f"{user}:{quote(password, safe='')}"
        return f"postgresql://{auth}@/{database}?host={quote(str(self.socket_dir), safe='')}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a PostgreSQL program (or ``sh``) as the server's user."""
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        program = args[0] if args[0] == "sh" else str(self.bin / args[0])
        return subprocess.run([*prefix, program, *args[1:]], check=check,
                              capture_output=True, text=True, timeout=120)

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement outside a transaction (CREATE DATABASE, ALTER ROLE...)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def new_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its address."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self, mode: str = "fast") -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop",
                 check=False)

    def start(self) -> None:
        options = (f"-k {self.socket_dir} -c listen_addresses='' -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
        done = self.run("pg_ctl", "-D", str(self.folder / "data"), "-l",
                        str(self.folder / "server.log"), "-o", options, "-w", "start",
                        check=False)
        if done.returncode != 0:
            log = (self.folder / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"pg_ctl start failed: {done.stderr}\n{log}")


def start_server() -> PgServer:
    """Initialise and start a server in a new temporary folder (see the module)."""
    folder_bin = pg_bin()
    if folder_bin is None:
        unavailable("PostgreSQL is not installed")
    assert folder_bin is not None
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed")
    user = None
    folder = Path(tempfile.mkdtemp(prefix="tractor-pg-"))
    if os.geteuid() == 0:
        user = "postgres"
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            unavailable("there is no postgres user to run the server as")
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    folder.chmod(0o755)
    server = PgServer(folder, folder_bin, user)
    prefix = ["runuser", "-u", user, "--"] if user else []
    subprocess.run([*prefix, "mkdir", "-p", str(server.socket_dir)], check=True)
    done = server.run("initdb", "-D", str(folder / "data"), "-U", "postgres", "-A", "trust",
                      "-E", "UTF8", "--locale=C", "--no-sync", check=False)
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {done.stderr}")
    hba = folder / "data" / "pg_hba.conf"  # owned by the server's user: rewrite in place
    server.run("sh", "-c", f"printf '%s\\n' '{HBA}' > {hba}")
    server.start()
    return server


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
