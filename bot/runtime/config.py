"""Configuration from the environment (and a ``.env`` file through python-dotenv).

`SETTINGS` is the one list of the variables the bot reads: ``tractor-bot --help``,
README's settings table and ``.env.example`` are all made from it (tests/test_docs.py
checks that they agree; ``python -m bot.runtime.config env-example`` and ``… readme`` print them).
`ConfigError` carries one line for the operator; the token is never printed.
"""

from __future__ import annotations

import dataclasses
import logging
import math
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
    "parse_shard_ids",
    "readme_table",
    "shard_of",
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
    Setting("TRACTOR_WORKERS", "auto",
            "worker processes drawing pictures and running computer players: `auto`, one "
            "per core the bot may use (its CPU affinity or container limit, at most 16), or "
            "0–16 (`0`: threads in the bot's process, which then compete with it for the "
            "interpreter)"),
    Setting("TRACTOR_RULES_URL", "",
            "a web address of the rule book (`docs/rules.md`) that `/tractor rules` and help "
            "link to; unset: they name the file in the bot's source"),
    Setting("TRACTOR_DEBUG_START_LEVEL", "",
            "debugging only: new matches start at this level (`2`–`A`) instead of 2"),
    Setting("SHARD_COUNT", "",
            "Discord gateway shards of the whole bot, over every cluster; unset: one "
            "unsharded process"),
    Setting("SHARD_IDS", "",
            "the shards this process (cluster) runs: a range `0-3` or a list `0,2`; unset: "
            "all of `SHARD_COUNT`, or its share by `CLUSTER_INDEX`"),
    Setting("CLUSTER_INDEX", "",
            "instead of `SHARD_IDS`: this cluster's number (from 0) of `CLUSTER_COUNT`, "
            "which share `SHARD_COUNT` in equal consecutive ranges"),
    Setting("CLUSTER_COUNT", "", "the clusters `CLUSTER_INDEX` counts (default 1)"),
    Setting("CLUSTER_NAME", "",
            "this process's name in every log line and in the shard leases; unset: "
            "`shards-<first>-<last>` when sharded, nothing otherwise"),
    Setting("DISCORD_API_BASE", "",
            "the REST address discord.py calls instead of Discord's, e.g. "
            "`http://nirn-proxy:8080/api/v10` (one rate limiter shared by every cluster)"),
    Setting("REST_BUDGET", "45",
            "Discord REST calls a second the whole bot may make against its global limit "
            "(50/s per bot; raise it if Discord granted more): each cluster takes its "
            "shards' share of it (README, Shard clusters); interaction answers and "
            "token edits are not counted"),
    Setting("TURN_PING_IDLE", "60",
            "seconds without a move after which a player's turn notice pings them (the "
            "first turn of a hand always does); sooner, it is a quiet edit"),
    Setting("SYNC_COMMANDS", "auto",
            "slash command sync at start: `always`, `changed` (only when the command tree "
            "differs from the last synced, kept in the database: once per deploy), `off`; "
            "`auto`: `always` for one unsharded process, `changed` for clusters"),
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


CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
"""A container's CPU limit (cgroup v2): ``quota period`` or ``max period``."""


def usable_cores(cgroup: Path | None = None) -> int:
    """The cores this process may run on, 1 to 16 (TRACTOR_WORKERS=auto): its CPU affinity,
    lowered to a container's CPU limit (`cgroup`, default `CPU_MAX`; rounded up). Measured on 2
    cores (docs/performance.md, people first): a second worker plays 69% more computer
    moves and keeps people's panels as quick."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        quota, period = (cgroup or CPU_MAX).read_text().split()[:2]
        if quota != "max":
            cores = min(cores, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        pass  # no cgroup v2 limit to read
    return max(1, min(16, cores))


def local_play_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``python -m bot`` should play locally: no ``DISCORD_TOKEN`` is configured and
    ``LOCAL_PLAY`` is not ``off`` (the Docker image sets it: there a missing token is an
    error, since a page on the container's loopback helps nobody)."""
    source = os.environ if environ is None else environ
    if (source.get("DISCORD_TOKEN") or "").strip():
        return False
    return (source.get("LOCAL_PLAY") or "auto").strip().lower() not in {"off", "0", "no", "false"}


def _number(name: str, raw: str | None, default: float, low: float, high: float) -> float:
    """The number setting `name` (read as `raw`) in [low, high], or its default when unset."""
    text = (raw or "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {text!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low:g} and {high:g}, not {text}")
    return value


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
    TRACTOR_WORKERS, one per usable core by default when read from the environment)."""
    rules_url: str | None = None
    """Where players read the full rule book (TRACTOR_RULES_URL): linked from `/tractor
    rules` and help; unset, they name docs/rules.md of the bot's source."""
    hands_by_dm: bool = True
    """Whether players are told their hand also comes by DM (Discord). Local play's page
    shows only the channel, so there it names **My hand** alone."""
    seed: int | None = None
    """Seed the hands' shuffles (tests, demos); None = cryptographically random."""
    debug_start_level: str | None = None
    """Debug/test option (TRACTOR_DEBUG_START_LEVEL): new matches start with every seat at
    this level (``A`` makes a match last a hand or two). Never set it in production."""
    shard_count: int | None = None
    """Gateway shards of the whole bot (SHARD_COUNT); None: one unsharded process."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (SHARD_IDS, or CLUSTER_INDEX's share); None: all."""
    cluster_name: str = ""
    """This process's name in log lines and leases (CLUSTER_NAME)."""
    api_base: str | None = None
    """discord.py's REST base (DISCORD_API_BASE), e.g. a nirn-proxy; None: Discord's."""
    sync_changed_only: bool = False
    """Sync the commands only when the tree differs from the one last synced (stored)."""
    lease_seconds: float = 15.0
    """Seconds a shard lease lasts without renewal (renewed every third of it)."""
    rest_budget: float = math.inf
    """Global-limited Discord REST calls a second the whole bot may make (REST_BUDGET, 45
    when read from the environment; bot/runtime/budget.py); a cluster takes its part
    (`process_rest_budget`). A `Config` built directly (tests on SimCord's clock, which
    stands still between advances) has none."""
    turn_ping_idle: float = 60.0
    """Seconds without a move after which a turn notice pings its player (TURN_PING_IDLE)."""

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
        workers_text = (source.get("TRACTOR_WORKERS") or "auto").strip().lower()
        if workers_text == "auto":
            workers_text = str(usable_cores())
        if not workers_text.isdigit() or not 0 <= int(workers_text) <= 16:
            raise ConfigError(f"TRACTOR_WORKERS must be auto or a number from 0 to 16, not "
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
        shard_count, shard_ids = _shards(source)
        name = (source.get("CLUSTER_NAME") or "").strip()
        if name and not re.fullmatch(r"[\w.\-]{1,40}", name):
            raise ConfigError(f"CLUSTER_NAME must be 1-40 letters, digits, '.', '-' or '_', "
                              f"not {name!r}")
        if not name and shard_count is not None:
            ids = shard_ids if shard_ids is not None else tuple(range(shard_count))
            name = f"shards-{ids[0]}-{ids[-1]}"
        api_base = (source.get("DISCORD_API_BASE") or "").strip().rstrip("/") or None
        if api_base is not None and not re.fullmatch(r"https?://\S+", api_base):
            raise ConfigError(f"DISCORD_API_BASE must be an http(s) address, not {api_base!r}")
        sync = (source.get("SYNC_COMMANDS") or "auto").strip().lower()
        if sync not in {"auto", "always", "changed", "off"}:
            raise ConfigError(f"SYNC_COMMANDS must be auto, always, changed or off, not "
                              f"{sync!r}")
        if sync == "auto":
            sync = "always" if shard_count is None else "changed"
        rest_budget = _number("REST_BUDGET", source.get("REST_BUDGET"), 45.0, 0.1, 10_000.0)
        turn_ping_idle = _number("TURN_PING_IDLE", source.get("TURN_PING_IDLE"), 60.0, 0.0,
                                 86_400.0)
        config = cls(
            rest_budget=rest_budget,
            turn_ping_idle=turn_ping_idle,
            shard_count=shard_count,
            shard_ids=shard_ids,
            cluster_name=name,
            api_base=api_base,
            sync_commands=sync != "off",
            sync_changed_only=sync == "changed",
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
        if config.clustered and not url:
            raise ConfigError(
                "several clusters share the bot (SHARD_IDS is a part of SHARD_COUNT) but "
                "DATABASE_URL is not set: clusters need one PostgreSQL database")
        return config

    @property
    def clustered(self) -> bool:
        """Whether other processes run the rest of the bot's shards."""
        return (self.shard_count is not None and self.shard_ids is not None
                and len(self.shard_ids) < self.shard_count)

    @property
    def process_rest_budget(self) -> float:
        """This process's part of `rest_budget`: its shards' share of SHARD_COUNT (a
        cluster's budget), so that the clusters' budgets add up to the bot's, with or
        without a REST proxy (docs/clusters.md, "One REST budget")."""
        if not self.clustered or self.shard_ids is None or self.shard_count is None:
            return self.rest_budget
        return self.rest_budget * len(self.shard_ids) / self.shard_count

    def with_changes(self, **changes: object) -> Config:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level, logging.INFO))

    def database_file(self) -> Path:
        return Path(self.database_path)


def _count(text: str | None, name: str, low: int) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < low:
        raise ConfigError(f"{name} must be a whole number from {low}, not {text!r}")
    return int(text)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``0-3`` or ``0,2`` or ``0-3,8`` → sorted shard ids, each below `count`."""
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        found = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if found is None:
            raise ConfigError(f"SHARD_IDS must be a range 0-3 or a list 0,2, not {text!r}")
        first = int(found[1])
        last = int(found[2]) if found[2] is not None else first
        if last < first or last >= count:
            raise ConfigError(f"SHARD_IDS {part!r} is not within 0-{count - 1} (SHARD_COUNT "
                              f"{count})")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def _shards(source: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT, and this process's shards from SHARD_IDS or CLUSTER_INDEX/COUNT."""
    count = _count(source.get("SHARD_COUNT"), "SHARD_COUNT", 1)
    text = (source.get("SHARD_IDS") or "").strip()
    index = _count(source.get("CLUSTER_INDEX"), "CLUSTER_INDEX", 0)
    clusters = _count(source.get("CLUSTER_COUNT"), "CLUSTER_COUNT", 1)
    if count is None:
        if text or index is not None or clusters is not None:
            raise ConfigError("SHARD_IDS and CLUSTER_INDEX need SHARD_COUNT (the bot's shards)")
        return None, None
    if text and (index is not None or clusters is not None):
        raise ConfigError("set SHARD_IDS or CLUSTER_INDEX/CLUSTER_COUNT, not both")
    if text:
        return count, parse_shard_ids(text, count)
    if index is None and clusters is None:
        return count, None
    clusters = clusters or 1
    index = index or 0
    if clusters > count or index >= clusters:
        raise ConfigError(f"CLUSTER_INDEX must be below CLUSTER_COUNT, which must be at most "
                          f"SHARD_COUNT ({count})")
    return count, tuple(range(index * count // clusters, (index + 1) * count // clusters))


def shard_of(guild_id: int, shard_count: int) -> int:
    """The gateway shard of a server (Discord's formula)."""
    return (guild_id >> 22) % shard_count


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
