"""Configuration from the environment (and a ``.env`` file through python-dotenv).

`SETTINGS` is the one list of the variables the bot reads: ``tractor-bot --help``,
README's settings table and ``.env.example`` are all made from it (tests/test_docs.py
checks that they agree; ``python -m bot.runtime.config env-example`` and ``… readme`` print them).
`ConfigError` carries one line for the operator; the token is never printed.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DEFAULT_DATABASE",
    "LOCAL_DATABASE",
    "LOCAL_PORT",
    "SETTINGS",
    "Config",
    "ConfigError",
    "Setting",
    "env_example",
    "help_table",
    "load_dotenv_file",
    "local_play_wanted",
    "readme_table",
]

DEFAULT_DATABASE = "./data/tractor.sqlite3"
LOCAL_DATABASE = "./data/local.sqlite3"
"""Local play's file (bot/app/local.py), unless ``--database`` names another."""
LOCAL_PORT = 8765
"""Local play's page port on 127.0.0.1, unless ``--port`` names another."""
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Discord bot tokens: three base64url parts separated by dots.
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


@dataclass(frozen=True, slots=True)
class Setting:
    """One environment variable: its name, its default as written in ``.env`` ("" for
    none) and what it does (one sentence; `backticks` mark literal values)."""

    name: str
    default: str
    meaning: str

    @property
    def plain(self) -> str:
        """`meaning` without the Markdown backticks (for ``--help`` and ``.env.example``)."""
        return self.meaning.replace("`", "")


SETTINGS: tuple[Setting, ...] = (
    Setting("DISCORD_TOKEN", "",
            "the bot token from the Discord developer portal; without it `python -m bot` "
            "plays locally (see `LOCAL_PLAY`)"),
    Setting("DATABASE_PATH", DEFAULT_DATABASE,
            "the SQLite file of the Discord bot (its folder is created); local play uses "
            f"`{LOCAL_DATABASE}` (`--database` sets either)"),
    Setting("DATABASE_URL", "",
            "a PostgreSQL address (`postgresql://user@host:5432/tractor`) to keep the games "
            "there instead of in `DATABASE_PATH`; the password from the address, "
            "`PGPASSWORD` or a pass file (never logged); needs the `postgres` extra"),
    Setting("DEV_GUILD_ID", "",
            "a server id: sync the slash commands to this server only, at once (development)"),
    Setting("LOG_LEVEL", "INFO", "`DEBUG`, `INFO`, `WARNING` or `ERROR`"),
    Setting("BOT_ACTION_DELAY", "1.0",
            "seconds a computer player pauses before it acts (0–30)"),
    Setting("TRACTOR_COMPUTER", "ai",
            "the computer player: a name (`ai` the strongest, `expert`, `ai1`, `greedy`, "
            "`random`) or a level (`strong`, `normal`, `easy`); another name stops the start"),
    Setting("LOCAL_PLAY", "auto",
            "`off`: a missing `DISCORD_TOKEN` is an error instead of local play (the Docker "
            "image sets it)"),
    Setting("TRACTOR_ASSETS", "",
            "the folder holding `fonts/`, for an installed package (the Docker image sets "
            "`/app/assets`); unset: the checkout's `assets/`"),
    Setting("TRACTOR_WORKERS", "1",
            "worker processes drawing pictures and running computer players (0–16; `0`: "
            "threads in the bot's process, which then compete with it for the interpreter)"),
    Setting("TRACTOR_RULES_URL", "",
            "a web address of the rule book (`docs/rules.md`) that `/tractor rules` and help "
            "link to; unset: they name the file in the bot's source"),
    Setting("TRACTOR_DEBUG_START_LEVEL", "",
            "debugging only: new matches start at this level (`2`–`A`) instead of 2"),
)


def readme_table() -> str:
    """The settings as README's Markdown table."""
    rows = ["| variable | default | what it does |", "|---|---|---|"]
    rows += [f"| `{s.name}` | {f'`{s.default}`' if s.default else '—'} | {s.meaning} |"
             for s in SETTINGS]
    return "\n".join(rows) + "\n"


def help_table() -> str:
    """The settings as plain text for ``--help``."""
    lines = ["settings (from the environment or .env; the environment wins):"]
    for s in SETTINGS:
        default = f" (default {s.default})" if s.default else ""
        lines.append(f"  {s.name}{default}")
        lines += textwrap.wrap(s.plain, 88, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return "\n".join(lines)


def env_example() -> str:
    """The text of ``.env.example``."""
    lines = ["# Copy to .env and fill in. Every variable is optional; DISCORD_TOKEN is needed to",
             "# run the bot on Discord. Generated from bot/runtime/config.py:",
             "# python -m bot.runtime.config env-example"]
    for s in SETTINGS:
        lines += ["", *textwrap.wrap(s.plain, 90, initial_indent="# ", subsequent_indent="# "),
                  f"{s.name}={s.default}"]
    return "\n".join(lines) + "\n"


def local_play_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``python -m bot`` should play locally: no ``DISCORD_TOKEN`` is configured and
    ``LOCAL_PLAY`` is not ``off`` (the Docker image sets it: there a missing token is an
    error, since a page on the container's loopback helps nobody)."""
    source = os.environ if environ is None else environ
    if (source.get("DISCORD_TOKEN") or "").strip():
        return False
    return (source.get("LOCAL_PLAY") or "auto").strip().lower() not in {"off", "0", "no", "false"}


class ConfigError(ValueError):
    """A missing or malformed setting; ``str(error)`` is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Config:
    """The bot's settings. Tests build one directly (``Config(action_delay=0)``)."""

    token: str | None = dataclasses.field(default=None, repr=False)
    database_path: str = dataclasses.field(default=DEFAULT_DATABASE, repr=False)
    """Where the games are: an SQLite file, or a ``postgresql://`` address (DATABASE_URL
    wins over DATABASE_PATH; not in the repr: an address may hold a password)."""
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
    """Seconds between a settled hand and the next deal when nobody is waited for (only
    computers, or everyone on autopilot). People get a Ready check instead (the table
    option ``ready_timeout_s``)."""
    start_delay: float = 15.0
    """Seconds between ``Start`` and the first deal on Discord (announced; everyone's Ready
    deals at once), so people have their hand in front of them. Local play deals when the
    page is open."""
    forced_pause: float = 2.0
    """Seconds a forced play waits before it is made for the player (who sees it coming)."""
    computer_player: str = "ai"
    """The computer player (``engine.ai.make_player`` name or level; TRACTOR_COMPUTER)."""
    workers: int = 0
    """Worker processes for pictures and computer players (0: threads; `bot.runtime.offload`;
    TRACTOR_WORKERS, 1 by default when read from the environment)."""
    rules_url: str | None = None
    """Where players read the full rule book (TRACTOR_RULES_URL): linked from `/tractor
    rules` and help; unset, they name docs/rules.md of the bot's source."""
    hands_by_dm: bool = True
    """Whether players are told their hand also comes by DM (Discord). Local play's page
    shows only the channel, so there it names **My hand** alone."""
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
        url = (source.get("DATABASE_URL") or "").strip()
        if url:
            if not url.lower().startswith(("postgresql://", "postgres://")):
                raise ConfigError("DATABASE_URL must be a PostgreSQL address starting with "
                                  "postgresql:// (unset it to use DATABASE_PATH)")
            database = url
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
        workers_text = (source.get("TRACTOR_WORKERS") or "1").strip()
        if not workers_text.isdigit() or not 0 <= int(workers_text) <= 16:
            raise ConfigError(f"TRACTOR_WORKERS must be a number from 0 to 16, not "
                              f"{workers_text!r}")
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
        rules_url = (source.get("TRACTOR_RULES_URL") or "").strip() or None
        if rules_url is not None and not re.fullmatch(r"https?://\S+", rules_url):
            raise ConfigError(f"TRACTOR_RULES_URL must be an http(s) address, not {rules_url!r}")
        return cls(
            rules_url=rules_url,
            computer_player=computer,
            debug_start_level=debug_level,
            token=token,
            database_path=database,
            dev_guild_id=dev_guild,
            log_level=level,
            action_delay=delay,
            workers=int(workers_text),
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
    from engine.ai import CHOICES, make_player

    try:
        make_player(name, 0)
    except ValueError:
        raise ConfigError(
            f"TRACTOR_COMPUTER must be one of {', '.join(CHOICES)}, not {name!r}"
        ) from None


def load_dotenv_file(path: str | os.PathLike[str] | None = None) -> None:
    """Load ``.env`` (or `path`) into ``os.environ`` without overriding set variables."""
    from dotenv import load_dotenv

    load_dotenv(dotenv_path=path, override=False)


if __name__ == "__main__":  # python -m bot.runtime.config env-example|readme
    import sys

    _OUTPUTS = {"env-example": env_example, "readme": readme_table}
    if len(sys.argv) != 2 or sys.argv[1] not in _OUTPUTS:
        sys.exit("usage: python -m bot.runtime.config env-example|readme")
    sys.stdout.write(_OUTPUTS[sys.argv[1]]())
