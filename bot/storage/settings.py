"""Guild and user settings (defaults until first set)."""

from __future__ import annotations

import json
import sqlite3
from enum import Enum
from typing import Any, cast

from .records import GuildSettings, PanelMode, UserSettings
from .sql import dumps, ensure_guild, one


class Unset(Enum):
    """Type of `UNSET`."""

    UNSET = "UNSET"


UNSET = Unset.UNSET
"""Default of settings setters: leave this setting unchanged."""


def guild(db: sqlite3.Connection, guild_id: int) -> GuildSettings:
    """A guild's settings (defaults if never set)."""
    row = one(db, "SELECT language, table_options FROM guilds WHERE guild_id = ?", guild_id)
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(guild_id, row["language"], json.loads(row["table_options"]))


def check_guild_change(language: str | Unset, table_options: dict[str, Any] | Unset) -> None:
    """ValueError for an empty language or options that are not a dict."""
    if language is not UNSET and not (isinstance(language, str) and language):
        raise ValueError("language must be a non-empty string")
    if table_options is not UNSET and not isinstance(table_options, dict):
        raise ValueError("table_options must be a dict")


def set_guild(db: sqlite3.Connection, now: float, guild_id: int, language: str | Unset,
              options_json: str | None) -> GuildSettings:
    """Change a guild's language and/or options (``options_json`` None: keep them)."""
    ensure_guild(db, guild_id, now)
    old = guild(db, guild_id)
    new_language = old.language if isinstance(language, Unset) else language
    new_options = dumps(old.table_options) if options_json is None else options_json
    db.execute("UPDATE guilds SET language = ?, table_options = ?, updated_at = ?"
               " WHERE guild_id = ?", (new_language, new_options, now, guild_id))
    return GuildSettings(guild_id, new_language, json.loads(new_options))


def user(db: sqlite3.Connection, user_id: int) -> UserSettings:
    """A user's settings (defaults if never set)."""
    row = one(db, "SELECT four_colour, panel, language FROM user_settings WHERE user_id = ?",
              user_id)
    if row is None:
        return UserSettings(user_id)
    return UserSettings(user_id, bool(row["four_colour"]), cast(PanelMode, row["panel"]),
                        row["language"])


def check_user_change(four_colour: bool | Unset, panel: PanelMode | Unset,
                      language: str | Unset | None) -> None:
    """ValueError for a non-bool colour flag, an unknown panel mode or an empty language."""
    if four_colour is not UNSET and not isinstance(four_colour, bool):
        raise ValueError("four_colour must be a bool")
    if panel is not UNSET and panel not in ("dm", "ephemeral"):
        raise ValueError(f"panel must be 'dm' or 'ephemeral', got {panel!r}")
    if language is not UNSET and language is not None and not (
        isinstance(language, str) and language
    ):
        raise ValueError("language must be a non-empty string or None")


def set_user(db: sqlite3.Connection, now: float, user_id: int, four_colour: bool | Unset,
             panel: PanelMode | Unset, language: str | Unset | None) -> UserSettings:
    """Change some of a user's settings (``language=None`` clears the override)."""
    old = user(db, user_id)
    new = UserSettings(
        user_id,
        old.four_colour if isinstance(four_colour, Unset) else four_colour,
        old.panel if isinstance(panel, Unset) else panel,
        old.language if isinstance(language, Unset) else language,
    )
    db.execute(
        "INSERT INTO user_settings (user_id, four_colour, panel, language, updated_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
        " four_colour = excluded.four_colour, panel = excluded.panel,"
        " language = excluded.language, updated_at = excluded.updated_at",
        (user_id, int(new.four_colour), new.panel, new.language, now),
    )
    return new
