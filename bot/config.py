"""Configuration from the environment (and a ``.env`` file through python-dotenv).

| variable | default | meaning |
|---|---|---|
| ``DISCORD_TOKEN`` | — | the bot token (required to connect to Discord) |
| ``DATABASE_PATH`` | ``./data/tractor.sqlite3`` | the SQLite file |
| ``DEV_GUILD_ID`` | — | sync slash commands to this guild only (instant while developing) |
| ``LOG_LEVEL`` | ``INFO`` | DEBUG, INFO, WARNING or ERROR |
| ``BOT_ACTION_DELAY`` | ``1.0`` | seconds a computer seat pauses before it acts (0 in tests) |
| ``TRACTOR_COMPUTER`` | ``ai`` | the computer player: ``random``, ``greedy`` or ``ai`` (checked) |
| ``TRACTOR_DEBUG_START_LEVEL`` | — | debugging: new matches start at this level (2–A) |
| ``TRACTOR_ASSETS`` | the repo's ``assets/`` | folder with ``fonts/`` for an installed package |

`ConfigError` carries one line for the operator; the token is never printed.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_DATABASE", "Config", "ConfigError", "load_dotenv_file"]

DEFAULT_DATABASE = "./data/tractor.sqlite3"
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Discord bot tokens: three base64url parts separated by dots.
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


class ConfigError(ValueError):
    """A missing or malformed setting; ``str(error)`` is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Config:
    """The bot's settings. Tests build one directly (``Config(action_delay=0)``)."""

    token: str | None = dataclasses.field(default=None, repr=False)
    database_path: str = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    action_delay: float = 1.0
    """Seconds a computer seat pauses before acting (BOT_ACTION_DELAY)."""
    edit_interval: float = 1.0
    """Minimum seconds between two edits of one table message (coalescing)."""
    restart_grace: float = 15.0
    """Seconds added to a timer whose deadline passed while the bot was down."""
    sync_commands: bool = True
    """Sync the command tree in ``setup_hook`` (to ``dev_guild_id`` when set)."""
    hand_pause: float = 8.0
    """Seconds between a settled hand and the next deal."""
    computer_player: str = "ai"
    """The computer player (``engine.ai.make_player`` name; TRACTOR_COMPUTER)."""
    seed: int | None = None
    """Seed the hands' shuffles (tests, demos); None = cryptographically random."""
    debug_start_level: str | None = None
    """Debug/test option (TRACTOR_DEBUG_START_LEVEL): new matches start with both teams at
    this level (``A`` makes a match last a hand or two). Never set it in production."""

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, require_token: bool = True
    ) -> Config:
        """Read the settings; raise `ConfigError` on a missing or malformed value."""
        source = os.environ if env is None else env
        token = (source.get("DISCORD_TOKEN") or "").strip() or None
        if token is None and require_token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal "
                "in the environment or in .env"
            )
        if token is not None and not _TOKEN_RE.fullmatch(token):
            raise ConfigError(
                "DISCORD_TOKEN does not look like a bot token (three dot-separated parts); "
                "copy it again from the Discord developer portal"
            )
        database = (source.get("DATABASE_PATH") or "").strip() or DEFAULT_DATABASE
        guild_text = (source.get("DEV_GUILD_ID") or "").strip()
        dev_guild: int | None = None
        if guild_text:
            if not guild_text.isdigit():
                raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild_text!r}")
            dev_guild = int(guild_text)
        level = (source.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in _LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}, not {level!r}")
        delay_text = (source.get("BOT_ACTION_DELAY") or "").strip()
        delay = 1.0
        if delay_text:
            try:
                delay = float(delay_text)
            except ValueError:
                raise ConfigError(
                    f"BOT_ACTION_DELAY must be a number of seconds, not {delay_text!r}"
                ) from None
            if not 0 <= delay <= 30:
                raise ConfigError("BOT_ACTION_DELAY must be between 0 and 30 seconds")
        computer = (source.get("TRACTOR_COMPUTER") or "").strip().lower() or "ai"
        _check_computer(computer)
        debug_level = (source.get("TRACTOR_DEBUG_START_LEVEL") or "").strip().upper() or None
        if debug_level is not None and debug_level not in _RANKS:
            raise ConfigError(f"TRACTOR_DEBUG_START_LEVEL must be a rank 2-A, not {debug_level!r}")
        assets = (source.get("TRACTOR_ASSETS") or "").strip()
        if assets and not (Path(assets).expanduser() / "fonts").is_dir():
            # The renderer reads it itself (bot.render.assets_dir); checked here so a wrong
            # path is one line at start, not a failure at the first picture.
            raise ConfigError(
                f"TRACTOR_ASSETS={assets!r} has no fonts/ folder: point it at the assets/ "
                "folder shipped with the bot (or leave it unset in a checkout)"
            )
        return cls(
            computer_player=computer,
            debug_start_level=debug_level,
            token=token,
            database_path=database,
            dev_guild_id=dev_guild,
            log_level=level,
            action_delay=delay,
        )

    def with_changes(self, **changes: object) -> Config:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level, logging.INFO))

    def database_file(self) -> Path:
        return Path(self.database_path)


def _check_computer(name: str) -> None:
    """TRACTOR_COMPUTER must name a player `engine.ai.make_player` builds."""
    from engine.ai import PLAYERS, make_player

    try:
        make_player(name, 0)
    except ValueError:
        raise ConfigError(
            f"TRACTOR_COMPUTER must be one of {', '.join(PLAYERS)}, not {name!r}"
        ) from None


def load_dotenv_file(path: str | os.PathLike[str] | None = None) -> None:
    """Load ``.env`` (or `path`) into ``os.environ`` without overriding set variables."""
    from dotenv import load_dotenv

    load_dotenv(dotenv_path=path, override=False)
