"""Live tables: one JSON document per table, saved by compare-and-set on its version.

A save is one transaction: the version check, the document, and the match, hand and action
records of the accepted move (see `history`). Functions here run on a database thread
inside a transaction opened by `Database`; JSON is made on the caller's side (`Change`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Any, cast

from . import history
from .errors import StaleVersion, TableExists, TableNotFound
from .interface import Connection, Cursor, Row
from .records import HandAction, HandRecord, MatchRecord, StoredTable, TableStatus
from .sql import doc_dumps, ensure_guild, fits, one, opt_float, rows

STATUSES = ("lobby", "playing", "ended")


@dataclass(frozen=True, slots=True)
class Change:
    """What one save writes, with every JSON value already serialised (so the caller may
    change its dicts while the transaction runs on another thread). ``doc`` is the
    document as given (a shallow copy taken with the JSON), for the saved record: parsing
    the JSON just written back again cost the database thread more than the write's own
    Python."""

    doc: dict[str, Any]
    doc_json: str
    status: TableStatus | None
    deadline: float | EllipsisType | None
    match: MatchRecord | None
    hand: history.HandWrite | None
    actions: tuple[history.ActionWrite, ...]

    @classmethod
    def of(cls, doc: dict[str, Any], *, status: TableStatus | None,
           deadline: float | EllipsisType | None, actions: Sequence[HandAction],
           hand: HandRecord | None, match: MatchRecord | None) -> Change:
        """Validate the status and serialise the document, hand and actions."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"bad status {status!r}")
        return cls(dict(doc), doc_dumps(doc), status, deadline, match,
                   None if hand is None else history.HandWrite.of(hand),
                   tuple(history.ActionWrite.of(a) for a in actions))


def table_of(row: Row, doc: dict[str, Any] | None = None) -> StoredTable:
    """A `StoredTable` from a ``tables`` row (``doc`` instead of parsing the column)."""
    return StoredTable(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        creator_id=int(row["creator_id"]),
        status=cast(TableStatus, row["status"]),
        version=int(row["version"]),
        doc=json.loads(row["doc"]) if doc is None else doc,
        deadline=opt_float(row["deadline"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
    )


def create(db: Connection, now: float, guild_id: int, channel_id: int,
           creator_id: int, doc_json: str, status: TableStatus,
           deadline: float | None) -> StoredTable:
    """Insert a table at version 1; `TableExists` if the channel has one open."""
    existing = one(db, "SELECT id FROM tables WHERE channel_id = ? AND status <> 'ended'",
                   channel_id)
    if existing is not None:
        raise TableExists(channel_id, int(existing["id"]))
    ensure_guild(db, guild_id, now)
    cur = db.execute(
        "INSERT INTO tables (guild_id, channel_id, creator_id, status, version, doc,"
        " deadline, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) RETURNING id",
        (guild_id, channel_id, creator_id, status, doc_json, deadline, now, now),
    )
    return StoredTable(int(cur.fetchall()[0][0]), guild_id, channel_id, creator_id, status, 1,
                       json.loads(doc_json), deadline, now, now)


def load(db: Connection, table_id: int) -> StoredTable | None:
    """A table by id (any status)."""
    if not fits(table_id):
        return None
    row = one(db, "SELECT * FROM tables WHERE id = ?", table_id)
    return None if row is None else table_of(row)


def in_channel(db: Connection, channel_id: int) -> StoredTable | None:
    """The channel's table that has not ended, if any."""
    if not fits(channel_id):
        return None
    row = one(db, "SELECT * FROM tables WHERE channel_id = ? AND status <> 'ended'", channel_id)
    return None if row is None else table_of(row)


def active(db: Connection) -> list[StoredTable]:
    """All tables that have not ended, oldest first."""
    return [table_of(r) for r in rows(db, "SELECT * FROM tables WHERE status <> 'ended'"
                                          " ORDER BY id")]


def check_version(db: Connection, table_id: int, expected_version: int
                  ) -> Row:
    """The table's row if it is at ``expected_version`` and not ended; else `StaleVersion`
    (or `TableNotFound`)."""
    if not fits(table_id):
        raise TableNotFound(table_id)
    row = one(db, "SELECT id, guild_id, channel_id, creator_id, status, version, deadline,"
                  " created_at FROM tables WHERE id = ?", table_id)
    if row is None:
        raise TableNotFound(table_id)
    if int(row["version"]) != expected_version or row["status"] == "ended":
        raise StaleVersion(table_id, expected_version, int(row["version"]), row["status"])
    return row


def save(db: Connection, now: float, table_id: int, expected_version: int,
         change: Change) -> StoredTable:
    """Compare-and-set, then write the document and the move's records (see `Store`)."""
    row = check_version(db, table_id, expected_version)
    match = None if change.match is None else history.upsert_match(db, change.match, row, now)
    hand_ids: dict[str, int] = {}
    if change.hand is not None:
        hand_ids[change.hand.record.hand_key] = history.upsert_hand(
            db, change.hand, row, now, match)
    history.append_actions(db, change.actions, table_id, now, hand_ids)
    status = change.status or str(row["status"])
    if isinstance(change.deadline, EllipsisType):
        deadline = None if status == "ended" else opt_float(row["deadline"])
    else:
        deadline = change.deadline
    _set_version(db, table_id, expected_version, db.execute(
        "UPDATE tables SET doc = ?, version = version + 1, status = ?, deadline = ?,"
        " updated_at = ?, ended_at = ? WHERE id = ? AND version = ?",
        (change.doc_json, status, deadline, now, now if status == "ended" else None, table_id,
         expected_version),
    ))
    return StoredTable(
        table_id, int(row["guild_id"]), int(row["channel_id"]), int(row["creator_id"]),
        cast(TableStatus, status), expected_version + 1, change.doc,
        deadline, float(row["created_at"]), now,
    )


def saved(db: Connection, table_id: int, expected_version: int, change: Change
          ) -> StoredTable | None:
    """The table as `save` left it if that save happened (the table is at the next version
    with this document), else None: resolves a save whose COMMIT was lost."""
    row = one(db, "SELECT * FROM tables WHERE id = ?", table_id)
    if row is None or int(row["version"]) != expected_version + 1 or (
            row["doc"] != change.doc_json):
        return None
    return table_of(row, change.doc)


def ended(db: Connection, table_id: int, expected_version: int) -> bool | None:
    """True if `end` at ``expected_version`` happened, else None (see `saved`)."""
    row = one(db, "SELECT version, status FROM tables WHERE id = ?", table_id)
    if row is None or int(row["version"]) != expected_version + 1 or row["status"] != "ended":
        return None
    return True


def end(db: Connection, now: float, table_id: int, expected_version: int) -> None:
    """Mark the table ended (version+1, deadline cleared); `StaleVersion` as in `save`."""
    check_version(db, table_id, expected_version)
    _set_version(db, table_id, expected_version, db.execute(
        "UPDATE tables SET status = 'ended', version = version + 1, deadline = NULL,"
        " updated_at = ?, ended_at = ? WHERE id = ? AND version = ?",
        (now, now, table_id, expected_version),
    ))


def _set_version(db: Connection, table_id: int, expected_version: int, cur: Cursor) -> None:
    """The compare-and-set itself: the UPDATE matched the row at ``expected_version`` (a
    backend whose transactions do not hold the write lock from `check_version` on, as
    PostgreSQL's, may find it moved meanwhile: `StaleVersion`, everything rolled back)."""
    if cur.rowcount != 1:
        row = one(db, "SELECT version, status FROM tables WHERE id = ?", table_id)
        if row is None:
            raise TableNotFound(table_id)
        raise StaleVersion(table_id, expected_version, int(row["version"]), row["status"])
