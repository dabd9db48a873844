"""A throwaway PostgreSQL server in a temporary folder (the tests' and ``tools.bench_store``'s).

`start_server` runs ``initdb`` and ``pg_ctl start`` listening on a Unix socket in the folder
only (nothing on TCP), as the ``postgres`` user when run as root (the server refuses root);
`PgServer.stop` stops it. Not tuned for durability (``fsync=off``): for tests and
benchmarks only.
"""

from __future__ import annotations

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

HBA = "local all tractor_pw scram-sha-256\nlocal all all trust"
"""Unix socket only; the role tractor_pw must give its password (the startup tests)."""


class PgUnavailable(RuntimeError):
    """PostgreSQL (or psycopg) is not installed here."""


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


@dataclass
class PgServer:
    """A running throwaway server."""

    folder: Path
    bin: Path
    user: str | None
    """The user the server runs as (None: this process's user)."""
    fsync: bool = False
    """Durable commits (a benchmark); off for tests (faster, nothing to keep)."""
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
            conn.execute(statement)

    def new_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its address."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self, mode: str = "fast") -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop",
                 check=False)

    def start(self) -> None:
        options = f"-k {self.socket_dir} -c listen_addresses='' -c max_connections=300"
        if not self.fsync:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        done = self.run("pg_ctl", "-D", str(self.folder / "data"), "-l",
                        str(self.folder / "server.log"), "-o", options, "-w", "start",
                        check=False)
        if done.returncode != 0:
            log = (self.folder / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"pg_ctl start failed: {done.stderr}\n{log}")


def start_server(*, fsync: bool = False) -> PgServer:
    """Initialise and start a server in a new temporary folder (see the module)."""
    folder_bin = pg_bin()
    if folder_bin is None:
        raise PgUnavailable("PostgreSQL is not installed")
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise PgUnavailable("psycopg is not installed") from exc
    user = None
    folder = Path(tempfile.mkdtemp(prefix="tractor-pg-"))
    if os.geteuid() == 0:
        user = "postgres"
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            raise PgUnavailable("there is no postgres user to run the server as") from None
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    folder.chmod(0o755)
    server = PgServer(folder, folder_bin, user, fsync)
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
