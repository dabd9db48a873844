"""Small helpers shared by the storage modules (synchronous: they run on a database thread)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from .records import Players


def dumps(value: Any) -> str:
    """Compact JSON text for a JSON column; ValueError if ``value`` is not JSON."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not JSON-serialisable: {exc}") from exc


def one(db: sqlite3.Connection, sql: str, *params: Any) -> sqlite3.Row | None:
    """The first row of a query, or None."""
    row: sqlite3.Row | None = db.execute(sql, params).fetchone()
    return row


def rows(db: sqlite3.Connection, sql: str, *params: Any) -> list[sqlite3.Row]:
    """All rows of a query."""
    return db.execute(sql, params).fetchall()


def fits(value: int) -> bool:
    """True if ``value`` fits an SQLite INTEGER (ids from outside may not: no such row)."""
    return -(2**63) <= value < 2**63


def opt_int(value: Any) -> int | None:
    """``int(value)``, keeping None."""
    return None if value is None else int(value)


def opt_float(value: Any) -> float | None:
    """``float(value)``, keeping None."""
    return None if value is None else float(value)


def players_of(seat_rows: Iterable[sqlite3.Row]) -> Players:
    """Four seats from ``(seat, user_id)`` rows; a missing or NULL user is a computer."""
    seats: list[int | None] = [None] * 4
    for r in seat_rows:
        seats[int(r["seat"])] = opt_int(r["user_id"])
    return tuple(seats)


def check_players(players: Players) -> None:
    """ValueError unless there are exactly four seats."""
    if len(players) != 4:
        raise ValueError(f"players must have 4 seats, got {len(players)}")


def distinct_humans(players: Players) -> bool:
    """True if all four seats are different humans (a ranked line-up)."""
    humans = [p for p in players if p is not None]
    return len(humans) == 4 and len(set(humans)) == 4


def put_seats(db: sqlite3.Connection, table: str, key: str, key_id: int,
              players: Players) -> None:
    """Upsert the four seat rows of a match or hand."""
    db.executemany(
        f"INSERT INTO {table} ({key}, seat, user_id) VALUES (?, ?, ?)"
        f" ON CONFLICT ({key}, seat) DO UPDATE SET user_id = excluded.user_id",
        [(key_id, seat, user) for seat, user in enumerate(players)],
    )


def ensure_guild(db: sqlite3.Connection, guild_id: int, now: float) -> None:
    """Create the guild's settings row and its season 1 if missing."""
    db.execute(
        "INSERT INTO guilds (guild_id, updated_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (guild_id, now),
    )
    db.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (?, 1, ?)"
               " ON CONFLICT DO NOTHING", (guild_id, now))
