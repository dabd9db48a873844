"""Schema checks and migrations on PostgreSQL (``migrations/V<n>__<name>.sql``).

Opening never writes before the database has been recognised: a database with other
tables and no ``schema_version``, or one at a version newer than the code, is refused
untouched. Migrating holds an advisory lock (`MIGRATION_LOCK`), each migration in one transaction:
of two processes migrating one database at once, one applies and the other waits for it,
then finds the version applied and does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from bot.storage.errors import DatabaseCorrupt, SchemaTooNew
from bot.storage.schema import SCHEMA_VERSION, Migration, load_migrations

MIGRATIONS = load_migrations("bot.storage.postgres")
MIGRATION_LOCK = 0x54524354  # 'TRCT'
"""The advisory lock key held while migrating."""
MIGRATION_WAIT = "60s"
"""How long opening waits for another process's migration (its lock)."""

_FOREIGN = ("Use an empty database for the bot, or point DATABASE_URL at the bot's own;"
            " nothing was modified.")


def applied_versions(conn: psycopg.Connection[Any]) -> dict[int, str] | None:
    """{version: name} recorded in schema_version, or None if there is no such table."""
    row = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return None
    return {int(r[0]): str(r[1]) for r in conn.execute(
        "SELECT version, name FROM schema_version").fetchall()}


def inspect(conn: psycopg.Connection[Any], path: str) -> int:
    """Check the database is the bot's (or empty) without writing; return its version."""
    applied = applied_versions(conn)
    if applied is None:
        others = conn.execute(
            "SELECT relname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p')"
            " ORDER BY relname LIMIT 3").fetchall()
        if others:
            names = ", ".join(str(r[0]) for r in others)
            raise DatabaseCorrupt(path, f"not a Tractor database (no schema_version table;"
                                  f" has {names})", hint=_FOREIGN)
        return 0
    current = max(applied, default=0)
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(path, current, SCHEMA_VERSION)
    expected = {m.version: m.name for m in MIGRATIONS if m.version <= current}
    if applied != expected:
        raise DatabaseCorrupt(path, f"schema_version rows {sorted(applied.items())} do not"
                              " match the migrations", hint=_FOREIGN)
    return current


def migrate(conn: psycopg.Connection[Any], path: str, clock: Callable[[], float]) -> int:
    """Apply pending migrations (``conn`` in autocommit mode), each in one transaction,
    all under the advisory lock; returns the version reached."""
    current = inspect(conn, path)
    if current == SCHEMA_VERSION:
        return current
    # A session lock taken before the transactions that read the catalog: a transaction
    # begun after another process's migration committed sees its tables (one that took
    # the lock inside the transaction could still see the catalog from before).
    conn.execute(f"SET lock_timeout = '{MIGRATION_WAIT}'")
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        conn.execute("RESET lock_timeout")
        for migration in MIGRATIONS:
            _apply(conn, path, migration, clock)
    finally:
        if not conn.closed and not conn.broken:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return SCHEMA_VERSION


def _apply(conn: psycopg.Connection[Any], path: str, migration: Migration,
           clock: Callable[[], float]) -> None:
    """Run one migration (nothing if it is applied already, e.g. by another process)."""
    conn.execute("BEGIN")
    try:
        if migration.version > inspect(conn, path):
            conn.execute(migration.sql)  # one script, no parameters
            conn.execute("INSERT INTO schema_version (version, name, applied_at)"
                         " VALUES (%s, %s, %s)", (migration.version, migration.name, clock()))
        conn.execute("COMMIT")
    except BaseException:
        if not conn.closed and not conn.broken:
            conn.execute("ROLLBACK")
        raise


def prove_writable(conn: psycopg.Connection[Any]) -> None:
    """Commit a write that changes nothing: fails without the rights to write (or on a
    read-only server) now rather than at the first move."""
    conn.execute("BEGIN")
    try:
        conn.execute("UPDATE schema_version SET applied_at = applied_at"
                     " WHERE version = (SELECT MAX(version) FROM schema_version)")
        conn.execute("COMMIT")
    except BaseException:
        if not conn.closed and not conn.broken:
            conn.execute("ROLLBACK")
        raise
