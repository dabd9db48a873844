"""Copy a database into another backend, keeping every id (``python -m bot.storage copy``).

The source is opened as the bot would (so a file from an earlier release is upgraded
first), read in ONE read transaction (a consistent snapshot, safe while nothing else
writes), and written to the target in ONE write transaction, so a failed copy leaves the
target as empty as it was. The target must hold no tables, matches or settings yet. Row
ids are kept (custom ids of live messages name table ids), and PostgreSQL's id sequences
are moved past them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from .address import display, is_url
from .errors import StorageError
from .factory import open_engine
from .interface import Connection, Engine

COPY_TIMEOUT = 3600.0
"""Seconds the target's one write transaction may take."""

TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("schema_version", ()),  # written by the target's own migrations
    ("guilds", ("guild_id", "language", "table_options", "updated_at")),
    ("user_settings", ("user_id", "four_colour", "panel", "language", "updated_at",
                       "turn_ping", "auto_forced")),
    ("seasons", ("guild_id", "number", "name", "started_at", "ended_at")),
    ("tables", ("id", "guild_id", "channel_id", "creator_id", "status", "version", "doc",
                "deadline", "created_at", "updated_at", "ended_at")),
    ("matches", ("id", "match_key", "table_id", "guild_id", "channel_id", "hands_played",
                 "ranked", "started_at", "ended_at", "season", "mode", "seats")),
    ("match_seats", ("match_id", "seat", "user_id", "level", "won", "team")),
    ("match_levels", ("id", "match_id", "hands_played", "levels", "at")),
    ("hands", ("id", "hand_key", "match_id", "table_id", "hand_no", "seed", "level", "trump",
               "starter", "kitty", "opponent_points", "kitty_points", "multiplier",
               "result_side", "result_levels", "rated", "started_at", "settled_at")),
    ("hand_seats", ("hand_id", "seat", "user_id", "holders", "side", "level_before",
                    "level_after")),
    ("hand_actions", ("hand_id", "seq", "action", "at")),
    ("ratings", ("guild_id", "season", "mode", "user_id", "mu", "sigma", "hands",
                 "updated_at")),
    ("pair_ratings", ("guild_id", "season", "mode", "user_lo", "user_hi", "mu", "sigma",
                      "hands", "updated_at")),
)
"""Every table of the schema (version `bot.storage.schema.SCHEMA_VERSION`) and its
columns, parents before children."""

IDENTITIES = ("tables", "matches", "match_levels", "hands")
"""The tables whose ``id`` the database numbers."""


@dataclass(frozen=True, slots=True)
class CopyInfo:
    """What `copy_database` copied: rows per table."""

    source: str
    target: str
    rows: dict[str, int]


def _read_all(db: Connection) -> dict[str, list[tuple[Any, ...]]]:
    found: dict[str, list[tuple[Any, ...]]] = {}
    for table, columns in TABLES:
        if columns:
            found[table] = [tuple(r) for r in db.execute(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}").fetchall()]
    return found


def _write_all(db: Connection, data: dict[str, list[tuple[Any, ...]]], kind: str) -> None:
    for table, columns in TABLES:
        if not columns:
            continue
        row = db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
        if row is not None:
            raise StorageError(f"the target already has rows in {table}: copy only into a"
                               " new, empty database")
    for table, columns in TABLES:
        if columns and data[table]:
            marks = ", ".join("?" for _ in columns)
            db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                           data[table])
    if kind == "postgres":
        for table in IDENTITIES:
            db.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                       f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")


async def copy_database(source: str | os.PathLike[str], target: str) -> CopyInfo:
    """Copy the database at ``source`` into the empty one at ``target`` (see the module)."""
    if os.fspath(source) == target:
        raise StorageError("the source and the target are the same database")
    if not is_url(source) and not os.path.isfile(source):
        raise StorageError(f"no database at {os.fspath(source)}")
    src: Engine = await open_engine(source, clock=time.time)
    try:
        data = await src.read(_read_all)
    finally:
        await src.close()
    dst = await open_engine(target, clock=time.time, write_timeout=COPY_TIMEOUT)
    try:
        await dst.write(lambda db: _write_all(db, data, dst.kind))
    finally:
        await dst.close()
    shown = display(target) if is_url(target) else target
    return CopyInfo(os.fspath(source), shown, {t: len(rows) for t, rows in data.items()})
