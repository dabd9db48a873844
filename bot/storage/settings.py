"""Guild and user settings (defaults until first set).

A guild's settings are the server defaults: its language and the default options of new
tables, a JSON object of option name -> value. Storage checks only that names are strings
and values are JSON; the bot's options registry judges them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from .interface import Connection
from .records import UNSET, GuildSettings, PanelMode, Unset, UserSettings
from .sql import dumps, ensure_guild, one


def guild(db: Connection, guild_id: int) -> GuildSettings:
    """A guild's settings (defaults if never set)."""
    row = one(db, "SELECT language, table_options FROM guilds WHERE guild_id = ?", guild_id)
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(guild_id, row["language"], json.loads(row["table_options"]))


def _options_json(options: Any, what: str) -> str:
    """``options`` as JSON text; ValueError unless it is a dict with str keys of JSON."""
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ValueError(f"{what} must be a dict with str keys")
    return dumps(dict(options))


@dataclass(frozen=True, slots=True)
class GuildChange:
    """A checked change of a guild's settings, its JSON already made (see `Store`)."""

    language: str | Unset
    options_json: str | None
    update_json: str | None
    reset: tuple[str, ...]

    @classmethod
    def of(cls, language: str | Unset, table_options: Mapping[str, Any] | Unset,
           update_options: Mapping[str, Any] | None,
           reset_options: Iterable[str]) -> GuildChange:
        """ValueError for an empty language, options that are not a dict of str -> JSON,
        or reset names that are not strings (a lone string is refused too)."""
        if language is not UNSET and not (isinstance(language, str) and language):
            raise ValueError("language must be a non-empty string")
        reset = () if isinstance(reset_options, str) else tuple(reset_options)
        if isinstance(reset_options, str) or not all(isinstance(k, str) for k in reset):
            raise ValueError("reset_options must be a collection of option names")
        return cls(
            language,
            None if isinstance(table_options, Unset)
            else _options_json(table_options, "table_options"),
            None if update_options is None
            else _options_json(update_options, "update_options"),
            reset,
        )


def set_guild(db: Connection, now: float, guild_id: int,
              change: GuildChange) -> GuildSettings:
    """Change a guild's settings: language; options replaced, then updated, then reset."""
    ensure_guild(db, guild_id, now)
    old = guild(db, guild_id)
    language = old.language if isinstance(change.language, Unset) else change.language
    options = (old.table_options if change.options_json is None
               else json.loads(change.options_json))
    if change.update_json is not None:
        options.update(json.loads(change.update_json))
    for name in change.reset:
        options.pop(name, None)
    db.execute("UPDATE guilds SET language = ?, table_options = ?, updated_at = ?"
               " WHERE guild_id = ?", (language, dumps(options), now, guild_id))
    return GuildSettings(guild_id, language, options)


def user(db: Connection, user_id: int) -> UserSettings:
    """A user's settings (defaults if never set)."""
    row = one(db, "SELECT four_colour, panel, language, turn_ping, auto_forced"
              " FROM user_settings WHERE user_id = ?", user_id)
    if row is None:
        return UserSettings(user_id)
    return UserSettings(user_id, bool(row["four_colour"]), cast(PanelMode, row["panel"]),
                        row["language"], bool(row["turn_ping"]), bool(row["auto_forced"]))


def check_user_change(four_colour: bool | Unset, panel: PanelMode | Unset,
                      language: str | Unset | None, *, turn_ping: bool | Unset = UNSET,
                      auto_forced: bool | Unset = UNSET) -> None:
    """ValueError for a non-bool flag, an unknown panel mode or an empty language."""
    for name, flag in (("four_colour", four_colour), ("turn_ping", turn_ping),
                       ("auto_forced", auto_forced)):
        if flag is not UNSET and not isinstance(flag, bool):
            raise ValueError(f"{name} must be a bool")
    if panel is not UNSET and panel not in ("dm", "ephemeral"):
        raise ValueError(f"panel must be 'dm' or 'ephemeral', got {panel!r}")
    if language is not UNSET and language is not None and not (
        isinstance(language, str) and language
    ):
        raise ValueError("language must be a non-empty string or None")


def set_user(db: Connection, now: float, user_id: int, four_colour: bool | Unset,
             panel: PanelMode | Unset, language: str | Unset | None, *,
             turn_ping: bool | Unset = UNSET, auto_forced: bool | Unset = UNSET
             ) -> UserSettings:
    """Change some of a user's settings (``language=None`` clears the override)."""
    old = user(db, user_id)
    new = UserSettings(
        user_id,
        old.four_colour if isinstance(four_colour, Unset) else four_colour,
        old.panel if isinstance(panel, Unset) else panel,
        old.language if isinstance(language, Unset) else language,
        old.turn_ping if isinstance(turn_ping, Unset) else turn_ping,
        old.auto_forced if isinstance(auto_forced, Unset) else auto_forced,
    )
    db.execute(
        "INSERT INTO user_settings (user_id, four_colour, panel, language, turn_ping,"
        " auto_forced, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
        " SET four_colour = excluded.four_colour, panel = excluded.panel,"
        " language = excluded.language, turn_ping = excluded.turn_ping,"
        " auto_forced = excluded.auto_forced, updated_at = excluded.updated_at",
        (user_id, int(new.four_colour), new.panel, new.language, int(new.turn_ping),
         int(new.auto_forced), now),
    )
    return new
