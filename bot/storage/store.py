"""`Store`: the bot's database, one facade over the storage modules and any `Engine`.

Live tables (`tables`), match/hand/action records (`history`), ratings (`ratings`), stats
and leaderboards (`stats`), seasons (`seasons`) and settings (`settings`) each live in
their own module as synchronous functions over a DB-API `Connection`; `Store` runs each
call as one transaction on a database thread of its `Engine` (SQLite:
`bot.storage.sqlite.database.Database`; PostgreSQL: `bot.storage.postgres.database.Database`),
chosen by `bot.storage.factory.open_engine` from the target (a path or a ``postgresql://``
address): reads on a consistent snapshot, writes each bounded by ``write_timeout`` (else
`StorageBusy`, nothing written).

Seasons: `current_season`, `start_season`, `seasons`. Stats, leaderboards and history
take ``season=None`` (the guild's current season) or a season number (`SeasonNotFound`
if the guild has no such season), and are per mode (the engine's `Mode`; the caller says
which: ``mode=`` of `leaderboard` and `history`; `stats` is the four-player game's record,
`friends_stats` Finding Friends'): every mode is counted, rated and ranked apart.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import EllipsisType, TracebackType
from typing import Any, Self, TypeVar

from . import history, seasons, settings, stats, tables
from .cluster import Fence, check_fence
from .errors import StorageError
from .factory import open_engine
from .interface import DEFAULT_READERS, DEFAULT_WRITE_TIMEOUT, Connection, Engine
from .records import (
    UNSET,
    BackupInfo,
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
from .schema import SCHEMA_VERSION
from .sql import dumps

Clock = Callable[[], float]

__all__ = ["UNSET", "LeaderboardBy", "LeaderboardScope", "Store", "open_store"]

USERS_KEPT = 100_000
"""Users' settings kept in memory (all dropped at once beyond that)."""


T = TypeVar("T")

@dataclass(slots=True)
class _Users:
    """Users' settings as last read or written through any `Store` of this process on one
    database file (the bot is the only writer of its settings)."""

    known: dict[int, UserSettings] = field(default_factory=dict)
    read_at: dict[int, float] = field(default_factory=dict)
    """When each was read (`time.monotonic`), for `Store.users_ttl`."""
    writes: int = 0
    """Changes begun or ended (a read that raced one is not kept)."""


_USERS: dict[str, _Users] = {}


def _users_of(db: Engine) -> _Users:
    """The settings kept for the database `db`, emptied (a store opened now may follow
    another process's writes); an in-memory database keeps its own."""
    if db.path == ":memory:":
        return _Users()
    key = os.path.realpath(db.path) if db.kind == "sqlite" else f"{db.kind}:{db.path}"
    users = _USERS.setdefault(key, _Users())
    users.known.clear()
    return users


class Store:
    """The bot's database. Open with `Store.open`; close with `close` (or ``async with``).

    Every method is one transaction. Any write may raise `StorageBusy` (another process
    held the database past the write timeout; nothing was written, try again) or
    `DatabaseNotWritable` (read-only file, full disk).
    """

    def __init__(self, db: Engine, clock: Clock, *, fence: Fence | None = None,
                 users_ttl: float | None = None) -> None:
        """Use `Store.open` (or `open_store`)."""
        self._db = db
        self._clock = clock
        self._users = _users_of(db)
        self.fence = fence
        """A cluster's (`bot.services.ownership`, shared with its leases): every table write
        checks, in its own transaction, that this process still holds the table's shard
        (`StaleOwner`)."""
        self.users_ttl = users_ttl
        """A cluster's: users' settings (which any cluster may change) are kept in memory
        this many seconds at most, so another cluster's change is seen that soon."""

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, target: str | os.PathLike[str], *, clock: Clock = time.time,
                   write_timeout: float = DEFAULT_WRITE_TIMEOUT,
                   readers: int = DEFAULT_READERS, fence: Fence | None = None,
                   users_ttl: float | None = None) -> Store:
        """Open the database at ``target`` (a file path: SQLite; a ``postgresql://``
        address: PostgreSQL), check it, migrate it, and prove it can be written.

        Raises `DatabaseCorrupt` or `SchemaTooNew` without modifying the database, and
        `DatabaseNotWritable` if it cannot be opened or written (SQLite: read-only file or
        folder, full disk; PostgreSQL: server out of reach, login refused, no rights).
        ``write_timeout``: seconds a write may wait for the database before `StorageBusy`;
        ``readers``: reader connections; ``fence`` and ``users_ttl``: a cluster's (see
        `Store.fence`, `Store.users_ttl`).
        """
        db = await open_engine(target, clock=clock, write_timeout=write_timeout,
                               readers=readers)
        return cls(db, clock, fence=fence, users_ttl=users_ttl)

    async def close(self) -> None:
        """Finish queued work and close the connections (checkpoints the WAL). Safe to
        call twice; afterwards every method raises `StorageError`."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The database: its file, or its address without the password."""
        return self._db.path

    @property
    def kind(self) -> str:
        """The backend: ``"sqlite"`` or ``"postgres"``."""
        return self._db.kind

    @property
    def schema_version(self) -> int:
        """The schema version this code migrates to (the database is at it once open)."""
        return SCHEMA_VERSION

    async def backup(self, dest: str | os.PathLike[str], *, overwrite: bool = False) -> BackupInfo:
        """Online backup of an SQLite database to ``dest`` (see
        `bot.storage.sqlite.backup.backup_database`); PostgreSQL is backed up with
        ``pg_dump`` (`StorageError`)."""
        if self._db.kind != "sqlite":
            raise StorageError(f"{self.path}: back up a {self._db.kind} database with its"
                               " own tools (pg_dump)")
        from .sqlite.backup import backup_database

        return await asyncio.to_thread(backup_database, self.path, dest, overwrite=overwrite)

    # ------------------------------------------------------------------ live tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        doc: dict[str, Any],
        *,
        status: TableStatus = "lobby",
        deadline: float | None = None,
    ) -> StoredTable:
        """Store a new table at version 1. Raises `TableExists` if the channel has one open."""
        if status == "ended" or status not in tables.STATUSES:
            raise ValueError(f"a new table cannot have status {status!r}")
        doc_json = dumps(doc)
        return await self._db.write(self._fenced(
            lambda db: tables.create(db, self._clock(), guild_id, channel_id, creator_id,
                                     doc_json, status, deadline), guild_id=guild_id))

    async def table_in_channel(self, channel_id: int) -> StoredTable | None:
        """The channel's table that has not ended, if any."""
        return await self._db.read(lambda db: tables.in_channel(db, channel_id))

    async def load_table(self, table_id: int) -> StoredTable | None:
        """A table by id (any status)."""
        return await self._db.read(lambda db: tables.load(db, table_id))

    async def active_tables(self) -> list[StoredTable]:
        """All tables that have not ended (to restore after a restart), oldest first."""
        return await self._db.read(tables.active)

    async def save_table(
        self,
        table_id: int,
        expected_version: int,
        doc: dict[str, Any],
        *,
        status: TableStatus | None = None,
        deadline: float | EllipsisType | None = ...,
        actions: Sequence[HandAction] = (),
        hand: HandRecord | None = None,
        match: MatchRecord | None = None,
    ) -> StoredTable:
        """Persist one accepted game action in ONE transaction; returns the table at version+1.

        Compare-and-set: raises `StaleVersion` (nothing written) if the table is not at
        ``expected_version`` or has ended. Then writes ``doc`` (``status``/``deadline`` if
        given; ``deadline=...`` keeps it), upserts ``match`` then ``hand`` (its seat holders
        merged with earlier saves; settling a hand updates ratings), and appends
        ``actions`` (their hands must exist by then). A new match counts in the guild's
        current season.
        Invalid records raise ValueError and roll everything back. The arguments are
        serialised before this returns to the event loop, so the caller may change them;
        the returned table's ``doc`` is ``doc`` as given (its keys as they were then, its
        values not copied), not read back from the database.
        """
        change = tables.Change.of(doc, status=status, deadline=deadline, actions=actions,
                                  hand=hand, match=match)
        return await self._db.write(
            self._fenced(lambda db: tables.save(db, self._clock(), table_id,
                                                expected_version, change), table_id=table_id),
            verify=lambda db: tables.saved(db, table_id, expected_version, change))

    async def end_table(self, table_id: int, expected_version: int) -> None:
        """Mark the table ended (version+1, deadline cleared); `StaleVersion` as in save."""
        def end(db: Connection) -> bool:
            tables.end(db, self._clock(), table_id, expected_version)
            return True

        await self._db.write(self._fenced(end, table_id=table_id),
                             verify=lambda db: tables.ended(db, table_id, expected_version))

    def _fenced(self, job: Callable[[Connection], T], *, table_id: int | None = None,
                guild_id: int | None = None) -> Callable[[Connection], T]:
        """`job`, first checking in its own transaction that this process still holds the
        shard of the table (or of the server) when it runs as a cluster (`fence`): a
        former owner writes nothing (`StaleOwner`)."""
        fence, kind = self.fence, self._db.kind
        if fence is None:
            return job

        def checked(db: Connection) -> T:
            check_fence(db, fence, kind, table_id, guild_id)
            return job(db)

        return checked

    # ------------------------------------------------------------------ records

    async def hand_record(self, hand: int | str) -> HandRecord | None:
        """A hand by id (int) or hand_key (str), with its full action list, for replay."""
        return await self._db.read(lambda db: history.hand_record(db, hand))

    async def match_hands(self, match_key: str) -> list[HandRecord]:
        """A match's hands in order (without actions), e.g. for a score sheet."""
        return await self._db.read(lambda db: history.match_hands(db, match_key))

    async def match_record(self, match_key: str) -> MatchRecord | None:
        """A match as last saved."""
        return await self._db.read(lambda db: history.match_record(db, match_key))

    async def level_history(self, match_key: str) -> list[LevelPoint]:
        """Every seat's levels over time: at the start, then after each change."""
        return await self._db.read(lambda db: history.level_history(db, match_key))

    async def history(self, channel_id: int, n: int = 10, *,
                      season: int | None = None, mode: Mode) -> list[MatchSummary]:
        """The channel's last ``n`` matches (finished or not) of ``mode`` and ``season``
        (None: the guild's current season), newest first."""
        return await self._db.read(
            lambda db: history.channel_history(db, channel_id, n, season, mode))

    # ------------------------------------------------------------------ seasons

    async def current_season(self, guild_id: int) -> Season:
        """The guild's current season (season 1 with ``started_at`` None for a guild that
        has recorded nothing yet)."""
        return await self._db.read(lambda db: seasons.current(db, guild_id))

    async def start_season(self, guild_id: int, *, name: str | None = None) -> Season:
        """Close the guild's current season (its records stay readable with ``season=``)
        and start the next one, where ratings and counts start fresh. Matches already
        under way finish in the season they started in. Returns the new season."""
        seasons.check_name(name)
        return await self._db.write(self._fenced(  # a server's records: its shard's owner
            lambda db: seasons.start(db, self._clock(), guild_id, name), guild_id=guild_id))

    async def seasons(self, guild_id: int) -> list[Season]:
        """The guild's seasons, oldest first (empty for a guild never seen)."""
        return await self._db.read(lambda db: seasons.listed(db, guild_id))

    # ------------------------------------------------------------------ stats

    async def stats(
        self, guild_id: int, user_id: int, *, include_computers: bool = True,
        season: int | None = None, mode: Mode,
    ) -> UserStats:
        """A player's record in a guild, season and mode with fixed sides (see `UserStats`;
        ``season`` None: the current one; Finding Friends: `friends_stats`).

        ``include_computers=False`` counts only ranked matches (four distinct humans, no
        seat changing hands within a hand). The favourite partner is the human partner
        of the most finished matches (ties: most wins together, then lowest id).
        """
        return await self._db.read(lambda db: stats.user_stats(
            db, guild_id, user_id, include_computers=include_computers, season=season,
            mode=str(mode)))

    async def friends_stats(
        self, guild_id: int, user_id: int, *, include_computers: bool = True,
        season: int | None = None,
    ) -> FriendsStats:
        """A player's Finding Friends record in a guild and season (see `FriendsStats`),
        apart from the teams game; ``include_computers=False`` counts only ranked
        matches (distinct humans in every seat, no seat changing hands within a hand)."""
        return await self._db.read(lambda db: stats.friends_stats(
            db, guild_id, user_id, include_computers=include_computers, season=season))

    async def leaderboard(
        self,
        guild_id: int,
        by: LeaderboardBy,
        scope: LeaderboardScope,
        page: int = 1,
        per_page: int = 10,
        *,
        season: int | None = None,
        mode: Mode,
    ) -> LeaderboardPage:
        """One page (1-based) of a guild leaderboard of ``mode`` and ``season`` (None: the
        current one), from ranked matches only. A mode without fixed sides has players only
        (partnerships: ValueError); its rating rates each hand's two sides (see
        `bot.storage.ratings`).

        by="rating": rated entries, display rating desc (then more rated hands);
        by="wins": entries with a finished match, wins desc (then fewer matches);
        by="levels": entries with a settled hand, levels gained desc (then fewer hands).
        Partnerships are unordered user pairs that sat as partners. Equal sort keys share
        a rank. A page past the end has no rows.
        """
        stats.check_leaderboard(by, scope, page, per_page, mode)
        return await self._db.read(lambda db: stats.leaderboard(
            db, guild_id, by, scope, page, per_page, season, mode))

    # ------------------------------------------------------------------ settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A guild's settings: the server defaults for new tables (defaults if never set)."""
        return await self._db.read(lambda db: settings.guild(db, guild_id))

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        language: str | Unset = UNSET,
        table_options: Mapping[str, Any] | Unset = UNSET,
        update_options: Mapping[str, Any] | None = None,
        reset_options: Iterable[str] = (),
    ) -> GuildSettings:
        """Change some of a guild's settings in one transaction; returns them all.

        ``table_options`` replaces the default options; then ``update_options`` sets
        single options and ``reset_options`` removes names (back to the bot's default).
        Option names must be strings and values JSON (else ValueError, nothing written);
        whether they are known options is for the caller to check.
        """
        change = settings.GuildChange.of(language, table_options, update_options,
                                         reset_options)
        return await self._db.write(self._fenced(
            lambda db: settings.set_guild(db, self._clock(), guild_id, change),
            guild_id=guild_id))

    async def user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (defaults if never set); read once, then kept in memory (every
        change goes through `set_user_settings`, which keeps the new ones)."""
        users = self._users
        known = self.known_user_settings(user_id)
        if known is not None:
            return known
        writes = users.writes
        found = await self._db.read(lambda db: settings.user(db, user_id))
        if writes != users.writes:  # a change raced this read: keep nothing
            return found
        return self._keep_user(found)

    def known_user_settings(self, user_id: int) -> UserSettings | None:
        """A user's settings if they are in memory (no database read), else None."""
        known = self._users.known.get(user_id)
        if (known is not None and self.users_ttl is not None
                and time.monotonic() - self._users.read_at.get(user_id, 0.0) > self.users_ttl):
            return None
        return known

    def _keep_user(self, found: UserSettings) -> UserSettings:
        known = self._users.known
        if len(known) >= USERS_KEPT:
            known.clear()
            self._users.read_at.clear()
        known[found.user_id] = found
        if self.users_ttl is not None:
            self._users.read_at[found.user_id] = time.monotonic()
        return found

    async def set_user_settings(
        self,
        user_id: int,
        *,
        four_colour: bool | Unset = UNSET,
        panel: PanelMode | Unset = UNSET,
        language: str | Unset | None = UNSET,
        turn_ping: bool | Unset = UNSET,
        auto_forced: bool | Unset = UNSET,
    ) -> UserSettings:
        """Change some of a user's settings (``language=None`` clears the override)."""
        settings.check_user_change(four_colour, panel, language, turn_ping=turn_ping,
                                   auto_forced=auto_forced)
        users = self._users
        users.known.pop(user_id, None)  # not known to be written until it returns
        users.writes += 1
        try:
            return self._keep_user(await self._db.write(lambda db: settings.set_user(
                db, self._clock(), user_id, four_colour, panel, language, turn_ping=turn_ping,
                auto_forced=auto_forced)))
        finally:
            users.writes += 1


async def open_store(target: str | os.PathLike[str], *, clock: Clock = time.time,
                     write_timeout: float = DEFAULT_WRITE_TIMEOUT,
                     readers: int = DEFAULT_READERS, fence: Fence | None = None,
                     users_ttl: float | None = None) -> Store:
    """`Store.open`: the one way in (a path opens SQLite, a ``postgresql://`` address
    PostgreSQL)."""
    return await Store.open(target, clock=clock, write_timeout=write_timeout, readers=readers,
                            fence=fence, users_ttl=users_ttl)
