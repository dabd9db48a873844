"""Small helpers shared by the storage modules (synchronous: they run on a database thread)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

import orjson

from engine.rules import RuleSet
from engine.state import opt_int
from engine.variant import Mode, Variant, find_variant

from .interface import Connection, Row
from .records import Players

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
"""One encoder for every column (``json.dumps`` with options builds a new one per call)."""


def dumps(value: Any) -> str:
    """Compact JSON text for a JSON column; ValueError if ``value`` is not JSON."""
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not JSON-serialisable: {exc}") from exc


def doc_dumps(doc: dict[str, Any]) -> str:
    """`dumps` of a table's document (written with every move), made by orjson: the same
    text about ten times faster. What orjson would write differently goes to `dumps`: keys
    that are not text and integers beyond 64 bits (orjson refuses them), and a number that
    is not finite among the document's own values (orjson writes null; the values nested
    deeper, the engine's state, hold integers only)."""
    if any(type(value) is float and not math.isfinite(value) for value in doc.values()):
        return dumps(doc)  # ValueError
    try:
        return orjson.dumps(doc).decode()
    except TypeError:
        return dumps(doc)


def one(db: Connection, sql: str, *params: Any) -> Row | None:
    """The first row of a query, or None."""
    row: Row | None = db.execute(sql, params).fetchone()
    return row


def rows(db: Connection, sql: str, *params: Any) -> list[Row]:
    """All rows of a query."""
    found: list[Row] = db.execute(sql, params).fetchall()
    return found


def fits(value: int) -> bool:
    """True if ``value`` fits an SQLite INTEGER (ids from outside may not: no such row)."""
    return -(2**63) <= value < 2**63


def opt_float(value: Any) -> float | None:
    """``float(value)``, keeping None."""
    return None if value is None else float(value)


def players_of(seat_rows: Iterable[Row], seats: int) -> Players:
    """``seats`` seats from ``(seat, user_id)`` rows; a missing or NULL user is a computer."""
    players: list[int | None] = [None] * seats
    for r in seat_rows:
        if 0 <= int(r["seat"]) < seats:
            players[int(r["seat"])] = opt_int(r["user_id"])
    return tuple(players)


def check_mode(mode: str) -> Mode:
    """``mode`` if it is one of the engine's modes, else ValueError."""
    return find_variant(mode).mode


def check_players(players: Players, mode: str) -> Variant:
    """The mode's variant; ValueError unless the engine lets a table of ``mode`` have
    ``len(players)`` seats (`engine.rules.RuleSet`: its own range and the variant's)."""
    variant = find_variant(mode)
    try:
        RuleSet(mode=variant.mode, players=len(players), decks=0)
    except ValueError as exc:
        raise ValueError(f"players of a {mode} match: {len(players)} seats: {exc}") from None
    return variant


def distinct_humans(players: Players) -> bool:
    """True if every seat is a different human (a ranked line-up)."""
    humans = [p for p in players if p is not None]
    return len(humans) == len(players) and len(set(humans)) == len(players)


def ensure_guild(db: Connection, guild_id: int, now: float) -> None:
    """Create the guild's settings row and its season 1 if missing."""
    db.execute(
        "INSERT INTO guilds (guild_id, updated_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (guild_id, now),
    )
    db.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (?, 1, ?)"
               " ON CONFLICT DO NOTHING", (guild_id, now))
