"""Schema checks and versioned migrations (``migrations/V<n>__<name>.sql``).

Opening never writes before the file has been recognised: a corrupt file, a foreign
SQLite database or a schema newer than the code raises and the file stays byte-identical.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.storage.errors import DatabaseCorrupt, SchemaTooNew
from bot.storage.schema import Migration, load_migrations

APPLICATION_ID = 0x54524354  # 'TRCT', set by V1
SQLITE_HEADER = b"SQLite format 3\x00"
_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


MIGRATIONS = load_migrations("bot.storage.sqlite")
LATEST_VERSION = MIGRATIONS[-1].version


def is_corruption(exc: BaseException) -> bool:
    """True if an sqlite3 error means the file is damaged or not a database."""
    return isinstance(exc, sqlite3.DatabaseError) and (
        getattr(exc, "sqlite_errorcode", None) in _CORRUPT_CODES
        or "malformed" in str(exc)
        or "not a database" in str(exc)
    )


def check_header(path: str | os.PathLike[str]) -> None:
    """Raise `DatabaseCorrupt` if a non-empty file at ``path`` is not SQLite. Reads only."""
    p = Path(path)
    if not p.is_file():
        return
    with p.open("rb") as f:
        head = f.read(len(SQLITE_HEADER))
    if head and head != SQLITE_HEADER:
        raise DatabaseCorrupt(path, "not an SQLite database (bad file header)")


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (handles triggers and comments)."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    rest = "\n".join(ln for ln in buf.splitlines() if not ln.strip().startswith("--"))
    if rest.strip():
        raise RuntimeError(f"incomplete SQL statement at end of migration: {rest.strip()[:80]}")
    return out


def _fetchall(conn: sqlite3.Connection, sql: str) -> list[sqlite3.Row]:
    return conn.execute(sql).fetchall()


def applied_versions(conn: sqlite3.Connection) -> dict[int, str] | None:
    """{version: name} recorded in schema_version, or None if there is no such table."""
    rows = _fetchall(
        conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    if not rows:
        return None
    return {int(r[0]): str(r[1]) for r in _fetchall(
        conn, "SELECT version, name FROM schema_version")}


def inspect(conn: sqlite3.Connection, path: str | os.PathLike[str]) -> int:
    """Check integrity and ownership without writing; return the current schema version."""
    problems = [str(r[0]) for r in _fetchall(conn, "PRAGMA quick_check(5)")]
    if problems != ["ok"]:
        raise DatabaseCorrupt(path, "integrity check failed: " + "; ".join(problems))
    app_id = int(_fetchall(conn, "PRAGMA application_id")[0][0])
    if app_id not in (0, APPLICATION_ID):
        raise DatabaseCorrupt(path, f"not a Tractor database (application_id {app_id:#x})")
    applied = applied_versions(conn)
    if applied is None:
        objects = _fetchall(
            conn, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 3"
        )
        if objects or app_id:
            names = ", ".join(str(r[0]) for r in objects)
            raise DatabaseCorrupt(
                path, f"not a Tractor database (no schema_version table; has {names})"
            )
        return 0
    current = max(applied, default=0)
    if current > LATEST_VERSION:
        raise SchemaTooNew(path, current, LATEST_VERSION)
    expected = {m.version: m.name for m in MIGRATIONS if m.version <= current}
    if applied != expected:
        raise DatabaseCorrupt(
            path, f"schema_version rows {sorted(applied.items())} do not match the migrations"
        )
    return current


def migrate(
    conn: sqlite3.Connection, clock: Callable[[], float], target: int = LATEST_VERSION
) -> int:
    """Apply pending migrations up to ``target``, each in one IMMEDIATE transaction.

    The connection must be in autocommit mode (``isolation_level=None``). Foreign keys
    are off while migrating (a table is rebuilt by copy, drop and rename without its
    children being deleted by ON DELETE CASCADE) and checked before each commit; the
    connection's setting is restored afterwards. Returns the schema version reached.
    """
    applied = applied_versions(conn) or {}
    foreign_keys = int(conn.execute("PRAGMA foreign_keys").fetchone()[0])
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in MIGRATIONS:
            if migration.version <= target and migration.version not in applied:
                _apply(conn, migration, clock)
    finally:
        conn.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
    return max([target, *applied])


def _apply(conn: sqlite3.Connection, migration: Migration, clock: Callable[[], float]) -> None:
    """Run one migration in one IMMEDIATE transaction (nothing if it was applied meanwhile)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Re-check under the write lock: another process may have migrated meanwhile.
        if migration.version not in (applied_versions(conn) or {}):
            for statement in split_statements(migration.sql):
                conn.execute(statement)
            broken = _fetchall(conn, "PRAGMA foreign_key_check")
            if broken:
                raise RuntimeError(f"migration V{migration.version} breaks foreign keys:"
                                   f" {[tuple(r) for r in broken[:3]]}")
            conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, clock()),
            )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
