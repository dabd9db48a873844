"""Seasons: per guild, numbered from 1; the current one is the highest.

Matches count in the season that was current when they were first saved (a match in
progress when a new season starts finishes in its own season); stats, leaderboards and
ratings are per season. A guild gets season 1 with its first row (`sql.ensure_guild`).
"""

from __future__ import annotations

from .errors import SeasonNotFound
from .interface import Connection, Row
from .records import Season
from .sql import ensure_guild, fits, one, opt_float, rows

CURRENT = "COALESCE((SELECT MAX(number) FROM seasons WHERE guild_id = {guild}), 1)"
"""SQL for the current season number of the guild given by the ``{guild}`` expression."""


def _season(row: Row) -> Season:
    return Season(int(row["guild_id"]), int(row["number"]), row["name"],
                  float(row["started_at"]), opt_float(row["ended_at"]))


def current(db: Connection, guild_id: int) -> Season:
    """The guild's current season (season 1, not yet started, for a guild never seen)."""
    row = one(db, "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT 1",
              guild_id) if fits(guild_id) else None
    return Season(guild_id, 1, None, None, None) if row is None else _season(row)


def listed(db: Connection, guild_id: int) -> list[Season]:
    """The guild's seasons, oldest first (none for a guild never seen)."""
    if not fits(guild_id):
        return []
    return [_season(r) for r in rows(db, "SELECT * FROM seasons WHERE guild_id = ?"
                                         " ORDER BY number", guild_id)]


def check_name(name: str | None) -> None:
    """ValueError unless ``name`` is None or a non-empty string."""
    if name is not None and not (isinstance(name, str) and name):
        raise ValueError("a season name must be None or a non-empty string")


def start(db: Connection, now: float, guild_id: int, name: str | None) -> Season:
    """Close the guild's current season and start the next one."""
    ensure_guild(db, guild_id, now)
    number = current(db, guild_id).number
    db.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
               (now, guild_id, number))
    db.execute("INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?, ?, ?, ?)",
               (guild_id, number + 1, name, now))
    return Season(guild_id, number + 1, name, now, None)


def resolve(db: Connection, guild_id: int, season: int | None) -> int:
    """The season number to read: ``season``, or the current one if None.
    `SeasonNotFound` unless 1 <= season <= the current season."""
    latest = current(db, guild_id).number
    if season is None:
        return latest
    if not 1 <= season <= latest:
        raise SeasonNotFound(guild_id, season)
    return season
