"""The storage seam: what the services may ask of a database, and what a backend provides.

Three layers of contract, smallest first:

- `Connection` (with `Cursor` and `Row`): the slice of DB-API 2 the query modules (`tables`,
  `history`, `ratings`, `stats`, `seasons`, `settings`) use inside one transaction: ``?``
  placeholders (``?1``-style numbered ones too), rows read by column name or position,
  ``rowcount``, and the connection's ``IntegrityError``. `sqlite3.Connection` is one as
  is; the PostgreSQL backend wraps psycopg's.
- `Engine`: runs such a job as ONE transaction on a database thread (`Engine.read` on a
  consistent snapshot, `Engine.write` with a bounded wait, else `StorageBusy`). A new SQL
  backend is an `Engine` plus its migrations (see ``bot/storage/sqlite`` and
  ``bot/storage/postgres``); `bot.storage.Store` turns any engine into a `Storage`.
- `Storage`: what the bot's services call (`bot.storage.Store` implements it). The
  services and features are typed against it, never against a backend.

`bot.storage.open_store` is the one factory: a path opens SQLite, a ``postgresql://``
address PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import EllipsisType
from typing import Any, Protocol, TypeVar

from .records import (
    FriendsStats,
    GuildSettings,
    HandAction,
    HandRecord,
    LeaderboardBy,
    LeaderboardPage,
    LeaderboardScope,
    LevelPoint,
    MatchRecord,
    MatchSummary,
    Mode,
    PanelMode,
    Season,
    StoredTable,
    TableStatus,
    Unset,
    UserSettings,
    UserStats,
)

T = TypeVar("T")

DEFAULT_WRITE_TIMEOUT = 2.0
"""Seconds a write may wait for the database (behind our own writes or another process)."""
DEFAULT_READERS = 2
"""Reader connections (and threads); reads beyond that many at once queue briefly."""

__all__ = ["Connection", "Cursor", "Engine", "Job", "Row", "Storage"]


class Row(Protocol):
    """A result row: ``row["column"]`` or ``row[0]``."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class Cursor(Protocol):
    """What a statement returns."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """One connection inside one transaction (opened and ended by the `Engine`)."""

    @property
    def IntegrityError(self) -> type[Exception]: ...

    def execute(self, sql: str, parameters: Any = (), /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Any: ...


Job = Callable[[Connection], T]
"""A transaction's work: runs on a database thread, may be run again (a backend retries a
job whose transaction was refused, e.g. a serialisation failure), so it must not change
anything outside the database."""


class Engine(Protocol):
    """A database behind `bot.storage.Store`: runs jobs as transactions on its threads."""

    @property
    def path(self) -> str:
        """What the database is, for messages and keys (never a password)."""
        ...

    @property
    def kind(self) -> str:
        """The backend's name: ``"sqlite"`` or ``"postgres"``."""
        ...

    async def read(self, job: Job[T]) -> T:
        """Run ``job`` in one read-only transaction on a consistent snapshot."""
        ...

    async def write(self, job: Job[T], *, verify: Job[T | None] | None = None) -> T:
        """Run ``job`` in one write transaction: committed if it returns, rolled back if it
        raises; `StorageBusy` (nothing written) if the database could not be had within
        the write timeout. If the outcome of its COMMIT is unknown (a server connection
        lost while committing), ``verify`` reads whether it happened: the job's result if
        so, None if not (then the job may run again)."""
        ...

    async def close(self) -> None:
        """Finish queued work and close every connection. Safe to call twice."""
        ...


class Storage(Protocol):
    """The bot's database as the services see it (see `bot.storage.Store` for each method's
    contract). Every method is one transaction; any write may raise `StorageBusy`."""

    @property
    def path(self) -> str: ...

    @property
    def schema_version(self) -> int: ...

    async def close(self) -> None: ...

    # live tables: versioned documents, saved by compare-and-set
    async def create_table(self, guild_id: int, channel_id: int, creator_id: int,
                           doc: dict[str, Any], *, status: TableStatus = "lobby",
                           deadline: float | None = None) -> StoredTable: ...

    async def table_in_channel(self, channel_id: int) -> StoredTable | None: ...

    async def load_table(self, table_id: int) -> StoredTable | None: ...

    async def active_tables(self) -> list[StoredTable]: ...

    async def save_table(self, table_id: int, expected_version: int, doc: dict[str, Any], *,
                         status: TableStatus | None = None,
                         deadline: float | EllipsisType | None = ...,
                         actions: Sequence[HandAction] = (), hand: HandRecord | None = None,
                         match: MatchRecord | None = None) -> StoredTable: ...

    async def end_table(self, table_id: int, expected_version: int) -> None: ...

    # records
    async def hand_record(self, hand: int | str) -> HandRecord | None: ...

    async def match_hands(self, match_key: str) -> list[HandRecord]: ...

    async def match_record(self, match_key: str) -> MatchRecord | None: ...

    async def level_history(self, match_key: str) -> list[LevelPoint]: ...

    async def history(self, channel_id: int, n: int = 10, *, season: int | None = None,
                      mode: Mode) -> list[MatchSummary]: ...

    # seasons
    async def current_season(self, guild_id: int) -> Season: ...

    async def start_season(self, guild_id: int, *, name: str | None = None) -> Season: ...

    async def seasons(self, guild_id: int) -> list[Season]: ...

    # stats, ratings and leaderboards
    async def stats(self, guild_id: int, user_id: int, *, include_computers: bool = True,
                    season: int | None = None, mode: Mode) -> UserStats: ...

    async def friends_stats(self, guild_id: int, user_id: int, *,
                            include_computers: bool = True,
                            season: int | None = None) -> FriendsStats: ...

    async def leaderboard(self, guild_id: int, by: LeaderboardBy,
                          scope: LeaderboardScope, page: int = 1,
                          per_page: int = 10, *, season: int | None = None,
                          mode: Mode) -> LeaderboardPage: ...

    # settings
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def set_guild_settings(self, guild_id: int, *, language: str | Unset = ...,
                                 table_options: Mapping[str, Any] | Unset = ...,
                                 update_options: Mapping[str, Any] | None = None,
                                 reset_options: Iterable[str] = ()) -> GuildSettings: ...

    async def user_settings(self, user_id: int) -> UserSettings: ...

    def known_user_settings(self, user_id: int) -> UserSettings | None: ...

    async def set_user_settings(self, user_id: int, *, four_colour: bool | Unset = ...,
                                panel: PanelMode | Unset = ..., language: str | Unset | None = ...,
                                turn_ping: bool | Unset = ..., auto_forced: bool | Unset = ...
                                ) -> UserSettings: ...

