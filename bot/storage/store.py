"""`Store`: the bot's SQLite database (aiosqlite, WAL, foreign keys, versioned migrations).

One connection per process; every public method runs under one `asyncio.Lock` in its own
transaction (writes ``BEGIN IMMEDIATE``, reads a deferred snapshot), so concurrent callers
never see each other's half-written state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from enum import Enum
from pathlib import Path
from types import EllipsisType, TracebackType
from typing import Any, Literal, Self, cast

import aiosqlite

from . import ratings
from .backup import BackupInfo, backup_database
from .errors import (
    DatabaseCorrupt,
    StaleVersion,
    StorageError,
    TableExists,
    TableNotFound,
)
from .migrate import LATEST_VERSION, check_header, inspect, is_corruption, migrate
from .records import (
    GuildSettings,
    HandAction,
    HandRecord,
    LeaderboardPage,
    LeaderboardRow,
    LevelPoint,
    MatchRecord,
    MatchSummary,
    PanelMode,
    Players,
    Side,
    StoredTable,
    TableStatus,
    UserSettings,
    UserStats,
)

Clock = Callable[[], float]
LeaderboardBy = Literal["rating", "wins", "levels"]
LeaderboardScope = Literal["players", "partnerships"]
_STATUSES = ("lobby", "playing", "ended")


class _Unset(Enum):
    UNSET = "UNSET"


UNSET = _Unset.UNSET
"""Default of settings setters: leave this setting unchanged."""


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not JSON-serialisable: {exc}") from exc


def _players(rows: Iterable[sqlite3.Row]) -> Players:
    seats: list[int | None] = [None] * 4
    for r in rows:
        seats[int(r["seat"])] = None if r["user_id"] is None else int(r["user_id"])
    return tuple(seats)


def _check_players(players: Players) -> None:
    if len(players) != 4:
        raise ValueError(f"players must have 4 seats, got {len(players)}")


def _distinct_humans(players: Players) -> bool:
    humans = [p for p in players if p is not None]
    return len(humans) == 4 and len(set(humans)) == 4


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


async def _connect(path: str) -> aiosqlite.Connection:
    """``aiosqlite.connect``; when it fails (a folder, no permission), wait until its worker
    thread has stopped before raising. aiosqlite lets that thread finish on its own, and if
    the event loop is closed first (``asyncio.run`` ending on this very error) the thread
    prints a traceback."""
    conn = aiosqlite.connect(path, isolation_level=None)
    try:
        return await conn
    except BaseException:
        thread = getattr(conn, "_thread", None)
        if thread is not None and thread.is_alive():
            with contextlib.suppress(BaseException):
                await asyncio.to_thread(thread.join, 5.0)
        raise


class Store:
    """The bot's database. Open with `Store.open`; close with `close` (or ``async with``)."""

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        """Use `Store.open`."""
        self._conn = conn
        self._path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, clock: Clock = time.time) -> Store:
        """Open (creating parent dirs), check, enable WAL + foreign keys, and migrate.

        Raises `DatabaseCorrupt` or `SchemaTooNew` without modifying the file.
        """
        path_s = os.fspath(path)
        if path_s != ":memory:":
            Path(path_s).parent.mkdir(parents=True, exist_ok=True)
            check_header(path_s)
        conn = await _connect(path_s)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute_fetchall("PRAGMA busy_timeout = 5000")
            await conn.execute_fetchall("PRAGMA foreign_keys = ON")
            await inspect(conn, path_s)  # read-only: raises before anything is written
            await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            # WAL with synchronous=NORMAL: durable up to an OS crash
            await conn.execute_fetchall("PRAGMA synchronous = NORMAL")
            await migrate(conn, clock)
        except BaseException as exc:
            await conn.close()
            if is_corruption(exc):
                raise DatabaseCorrupt(path_s, str(exc)) from exc
            raise
        return cls(conn, path_s, clock)

    async def close(self) -> None:
        """Close the connection (checkpoints the WAL). Safe to call twice."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            with contextlib.suppress(sqlite3.Error):
                await self._conn.execute_fetchall("PRAGMA optimize")
            await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    @property
    def schema_version(self) -> int:
        """The schema version this code migrates to (the database is at it once open)."""
        return LATEST_VERSION

    async def backup(self, dest: str | os.PathLike[str], *, overwrite: bool = False) -> BackupInfo:
        """Online backup to ``dest`` (see `bot.storage.backup.backup_database`)."""
        return await asyncio.to_thread(backup_database, self._path, dest, overwrite=overwrite)

    @asynccontextmanager
    async def _tx(self, *, write: bool) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction under the store lock; rolls back on any exception.

        aiosqlite runs statements in order on its own thread, so even when the caller is
        cancelled mid-way the queued ROLLBACK runs after whatever was already queued.
        """
        async with self._lock:
            if self._closed:
                raise StorageError(f"{self._path}: the store is closed")
            db = self._conn
            try:
                await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield db
                await db.execute("COMMIT")
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):  # no transaction left is fine
                    await db.execute("ROLLBACK")
                if is_corruption(exc):
                    raise DatabaseCorrupt(self._path, str(exc)) from exc
                raise

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
        if status == "ended" or status not in _STATUSES:
            raise ValueError(f"a new table cannot have status {status!r}")
        doc_json = _dumps(doc)
        async with self._tx(write=True) as db:
            existing = await _one(
                db, "SELECT id FROM tables WHERE channel_id = ? AND status <> 'ended'", channel_id
            )
            if existing is not None:
                raise TableExists(channel_id, int(existing["id"]))
            now = self._clock()
            await _ensure_guild(db, guild_id, now)
            cur = await db.execute(
                "INSERT INTO tables (guild_id, channel_id, creator_id, status, version, doc,"
                " deadline, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)",
                (guild_id, channel_id, creator_id, status, doc_json, deadline, now, now),
            )
            table_id = cur.lastrowid
            assert table_id is not None
        return StoredTable(
            table_id, guild_id, channel_id, creator_id, status, 1, json.loads(doc_json),
            deadline, now, now,
        )

    async def table_in_channel(self, channel_id: int) -> StoredTable | None:
        """The channel's table that has not ended, if any."""
        async with self._tx(write=False) as db:
            row = await _one(
                db, "SELECT * FROM tables WHERE channel_id = ? AND status <> 'ended'", channel_id
            )
        return None if row is None else _table(row)

    async def load_table(self, table_id: int) -> StoredTable | None:
        """A table by id (any status)."""
        async with self._tx(write=False) as db:
            row = await _one(db, "SELECT * FROM tables WHERE id = ?", table_id)
        return None if row is None else _table(row)

    async def active_tables(self) -> list[StoredTable]:
        """All tables that have not ended (to restore after a restart), oldest first."""
        async with self._tx(write=False) as db:
            rows = await _all(db, "SELECT * FROM tables WHERE status <> 'ended' ORDER BY id")
        return [_table(r) for r in rows]

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
        given; ``deadline=...`` keeps it), upserts ``match`` then ``hand`` (settling a hand
        updates ratings), and appends ``actions`` (their hands must exist by then).
        Invalid records raise ValueError and roll everything back.
        """
        if status is not None and status not in _STATUSES:
            raise ValueError(f"bad status {status!r}")
        doc_json = _dumps(doc)
        async with self._tx(write=True) as db:
            row = await self._check_version(db, table_id, expected_version)
            now = self._clock()
            if match is not None:
                await self._upsert_match(db, match, row, now)
            if hand is not None:
                await self._upsert_hand(db, hand, row, now)
            await self._append_actions(db, actions, table_id, now)
            new_status = status or str(row["status"])
            new_deadline = (
                _opt_float(row["deadline"]) if isinstance(deadline, EllipsisType) else deadline
            )
            if new_status == "ended" and isinstance(deadline, EllipsisType):
                new_deadline = None
            await db.execute(
                "UPDATE tables SET doc = ?, version = version + 1, status = ?, deadline = ?,"
                " updated_at = ?, ended_at = ? WHERE id = ? AND version = ?",
                (doc_json, new_status, new_deadline, now, now if new_status == "ended" else None,
                 table_id, expected_version),
            )
        return StoredTable(
            table_id, int(row["guild_id"]), int(row["channel_id"]), int(row["creator_id"]),
            cast(TableStatus, new_status), expected_version + 1, json.loads(doc_json),
            new_deadline, float(row["created_at"]), now,
        )

    async def end_table(self, table_id: int, expected_version: int) -> None:
        """Mark the table ended (version+1, deadline cleared); `StaleVersion` as in save."""
        async with self._tx(write=True) as db:
            await self._check_version(db, table_id, expected_version)
            now = self._clock()
            await db.execute(
                "UPDATE tables SET status = 'ended', version = version + 1, deadline = NULL,"
                " updated_at = ?, ended_at = ? WHERE id = ?",
                (now, now, table_id),
            )

    @staticmethod
    async def _check_version(
        db: aiosqlite.Connection, table_id: int, expected_version: int
    ) -> sqlite3.Row:
        row = await _one(db, "SELECT * FROM tables WHERE id = ?", table_id)
        if row is None:
            raise TableNotFound(table_id)
        if int(row["version"]) != expected_version or row["status"] == "ended":
            raise StaleVersion(table_id, expected_version, int(row["version"]), row["status"])
        return row

    async def _upsert_match(
        self, db: aiosqlite.Connection, rec: MatchRecord, table: sqlite3.Row, now: float
    ) -> None:
        _check_players(rec.players)
        if (rec.table_id, rec.guild_id, rec.channel_id) != (
            table["id"], table["guild_id"], table["channel_id"]
        ):
            raise ValueError(f"match {rec.match_key!r} does not match table {table['id']}")
        if rec.winner_team not in (None, "A", "B"):
            raise ValueError(f"bad winner_team {rec.winner_team!r}")
        ranked = _distinct_humans(rec.players)
        old = await _one(db, "SELECT * FROM matches WHERE match_key = ?", rec.match_key)
        if old is None:
            ended_at = rec.ended_at if rec.ended_at is not None else (
                now if rec.winner_team else None)
            cur = await db.execute(
                "INSERT INTO matches (match_key, table_id, guild_id, channel_id, levels_a,"
                " levels_b, winner_team, hands_played, ranked, started_at, ended_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (rec.match_key, rec.table_id, rec.guild_id, rec.channel_id, rec.levels_a,
                 rec.levels_b, rec.winner_team, rec.hands_played, int(ranked),
                 rec.started_at if rec.started_at is not None else now, ended_at),
            )
            assert cur.lastrowid is not None
            match_id: int = cur.lastrowid
            levels_changed = True
        else:
            if old["table_id"] != rec.table_id:
                raise ValueError(f"match {rec.match_key!r} belongs to table {old['table_id']}")
            match_id = int(old["id"])
            ended_at = rec.ended_at
            if ended_at is None and rec.winner_team is not None:
                ended_at = _opt_float(old["ended_at"]) or now
            await db.execute(
                "UPDATE matches SET levels_a = ?, levels_b = ?, winner_team = ?,"
                " hands_played = ?, ranked = ranked AND ?, started_at = COALESCE(?, started_at),"
                " ended_at = ? WHERE id = ?",
                (rec.levels_a, rec.levels_b, rec.winner_team, rec.hands_played, int(ranked),
                 rec.started_at, ended_at, match_id),
            )
            levels_changed = (old["levels_a"], old["levels_b"]) != (rec.levels_a, rec.levels_b)
        if levels_changed:
            await db.execute(
                "INSERT INTO match_levels (match_id, hands_played, levels_a, levels_b, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (match_id, rec.hands_played, rec.levels_a, rec.levels_b, now),
            )
        await _put_seats(db, "match_seats", "match_id", match_id, rec.players)

    async def _upsert_hand(
        self, db: aiosqlite.Connection, rec: HandRecord, table: sqlite3.Row, now: float
    ) -> None:
        _check_players(rec.players)
        if rec.table_id != table["id"]:
            raise ValueError(f"hand {rec.hand_key!r} is not for table {table['id']}")
        if rec.declarers is not None:
            d1, d2 = rec.declarers
            if not (0 <= d1 <= 3 and 0 <= d2 <= 3 and d1 != d2 and d1 % 2 == d2 % 2):
                raise ValueError(f"declarers must be two partner seats, got {rec.declarers}")
        if rec.starter is not None and not 0 <= rec.starter <= 3:
            raise ValueError(f"bad starter seat {rec.starter}")
        if rec.result_side not in (None, "declarers", "opponents"):
            raise ValueError(f"bad result_side {rec.result_side!r}")
        if rec.result_side is not None and rec.declarers is None:
            raise ValueError("a settled hand needs its declarers")
        if rec.result_levels < 0:
            raise ValueError("result_levels must be >= 0")
        match = await _one(db, "SELECT * FROM matches WHERE match_key = ?", rec.match_key)
        if match is None or match["table_id"] != rec.table_id:
            raise ValueError(f"hand {rec.hand_key!r}: no match {rec.match_key!r} at this table"
                             " (pass the MatchRecord first or in the same save)")
        match_id = int(match["id"])
        decl = rec.declarers or (None, None)
        values = (
            rec.hand_no, str(rec.seed), rec.level, rec.trump, rec.starter, decl[0], decl[1],
            _dumps(list(rec.kitty)), rec.opponent_points, rec.kitty_points, rec.multiplier,
            rec.result_side, rec.result_levels,
        )
        old = await _one(db, "SELECT * FROM hands WHERE hand_key = ?", rec.hand_key)
        settling = rec.result_side is not None
        if old is None:
            cur = await db.execute(
                "INSERT INTO hands (hand_no, seed, level, trump, starter, declarer_1, declarer_2,"
                " kitty, opponent_points, kitty_points, multiplier, result_side, result_levels,"
                " hand_key, match_id, table_id, started_at, settled_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, rec.hand_key, match_id, rec.table_id, now, now if settling else None),
            )
            assert cur.lastrowid is not None
            hand_id: int = cur.lastrowid
        else:
            hand_id = int(old["id"])
            if old["match_id"] != match_id:
                raise ValueError(f"hand {rec.hand_key!r} belongs to another match")
            if old["result_side"] is not None:
                if (old["result_side"], old["result_levels"]) != (
                    rec.result_side, rec.result_levels
                ):
                    raise ValueError(f"hand {rec.hand_key!r} is already settled")
                settling = False
            await db.execute(
                "UPDATE hands SET hand_no = ?, seed = ?, level = ?, trump = ?, starter = ?,"
                " declarer_1 = ?, declarer_2 = ?, kitty = ?, opponent_points = ?,"
                " kitty_points = ?, multiplier = ?, result_side = ?, result_levels = ?,"
                " settled_at = COALESCE(settled_at, ?) WHERE id = ?",
                (*values, now if settling else None, hand_id),
            )
        await _put_seats(db, "hand_seats", "hand_id", hand_id, rec.players)
        if not _distinct_humans(rec.players):
            await db.execute("UPDATE matches SET ranked = 0 WHERE id = ?", (match_id,))
        elif settling and match["ranked"]:
            await self._rate(db, hand_id, int(match["guild_id"]), rec, now)

    async def _rate(
        self, db: aiosqlite.Connection, hand_id: int, guild_id: int, rec: HandRecord, now: float
    ) -> None:
        assert rec.declarers is not None and rec.result_side is not None
        decl_parity = rec.declarers[0] % 2
        win_parity = decl_parity if rec.result_side == "declarers" else 1 - decl_parity
        winners = [cast(int, rec.players[s]) for s in (win_parity, win_parity + 2)]
        losers = [cast(int, rec.players[s]) for s in (1 - win_parity, 3 - win_parity)]

        async def skill(sql: str, *key: int) -> ratings.Skill:
            row = await _one(db, sql, guild_id, *key)
            return ratings.Skill() if row is None else ratings.Skill(row["mu"], row["sigma"])

        one = "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND user_id = ?"
        new_w, new_l = ratings.rate_win(
            [await skill(one, u) for u in winners], [await skill(one, u) for u in losers]
        )
        await db.executemany(
            "INSERT INTO ratings (guild_id, user_id, mu, sigma, hands, updated_at)"
            " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, hands = hands + 1,"
            " updated_at = excluded.updated_at",
            [(guild_id, u, s.mu, s.sigma, now)
             for u, s in zip([*winners, *losers], [*new_w, *new_l], strict=True)],
        )
        pair = ("SELECT mu, sigma FROM pair_ratings"
                " WHERE guild_id = ? AND user_lo = ? AND user_hi = ?")
        pw, pl = sorted(winners), sorted(losers)
        (new_pw,), (new_pl,) = ratings.rate_win(
            [await skill(pair, *pw)], [await skill(pair, *pl)]
        )
        await db.executemany(
            "INSERT INTO pair_ratings (guild_id, user_lo, user_hi, mu, sigma, hands, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_lo, user_hi) DO UPDATE"
            " SET mu = excluded.mu, sigma = excluded.sigma, hands = hands + 1,"
            " updated_at = excluded.updated_at",
            [(guild_id, *pw, new_pw.mu, new_pw.sigma, now),
             (guild_id, *pl, new_pl.mu, new_pl.sigma, now)],
        )
        await db.execute("UPDATE hands SET rated = 1 WHERE id = ?", (hand_id,))

    @staticmethod
    async def _append_actions(
        db: aiosqlite.Connection, actions: Sequence[HandAction], table_id: int, now: float
    ) -> None:
        hand_ids: dict[str, int] = {}
        for a in actions:
            if a.hand_key not in hand_ids:
                row = await _one(
                    db, "SELECT id, table_id FROM hands WHERE hand_key = ?", a.hand_key
                )
                if row is None or row["table_id"] != table_id:
                    raise ValueError(f"action for unknown hand {a.hand_key!r} at table {table_id}")
                hand_ids[a.hand_key] = int(row["id"])
            try:
                await db.execute(
                    "INSERT INTO hand_actions (hand_id, seq, action, at) VALUES (?, ?, ?, ?)",
                    (hand_ids[a.hand_key], a.seq, _dumps(a.action), now),
                )
            except sqlite3.IntegrityError as exc:
                raise ValueError(f"hand {a.hand_key!r} already has action {a.seq}") from exc

    # ------------------------------------------------------------------ records

    async def hand_record(self, hand: int | str) -> HandRecord | None:
        """A hand by id (int) or hand_key (str), with its full action list, for replay."""
        column = "h.id" if isinstance(hand, int) else "h.hand_key"
        async with self._tx(write=False) as db:
            rows = await _hands(db, f"{column} = ?", hand)
            if not rows:
                return None
            actions = await _all(
                db, "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq",
                rows[0].id,
            )
        return replace(rows[0], actions=[json.loads(r["action"]) for r in actions])

    async def match_hands(self, match_key: str) -> list[HandRecord]:
        """A match's hands in order (without actions), e.g. for a score sheet."""
        async with self._tx(write=False) as db:
            return await _hands(db, "m.match_key = ?", match_key)

    async def match_record(self, match_key: str) -> MatchRecord | None:
        """A match as last saved."""
        async with self._tx(write=False) as db:
            row = await _one(db, "SELECT * FROM matches WHERE match_key = ?", match_key)
            if row is None:
                return None
            seats = await _all(db, "SELECT * FROM match_seats WHERE match_id = ?", row["id"])
        return MatchRecord(
            match_key=row["match_key"], table_id=row["table_id"], guild_id=row["guild_id"],
            channel_id=row["channel_id"], players=_players(seats), levels_a=row["levels_a"],
            levels_b=row["levels_b"], winner_team=row["winner_team"],
            hands_played=row["hands_played"], started_at=row["started_at"],
            ended_at=row["ended_at"],
        )

    async def level_history(self, match_key: str) -> list[LevelPoint]:
        """Both teams' levels over time: at the start, then after each change."""
        async with self._tx(write=False) as db:
            rows = await _all(
                db,
                "SELECT l.* FROM match_levels AS l JOIN matches AS m ON m.id = l.match_id"
                " WHERE m.match_key = ? ORDER BY l.id",
                match_key,
            )
        return [LevelPoint(r["hands_played"], r["levels_a"], r["levels_b"], r["at"]) for r in rows]

    async def history(self, channel_id: int, n: int = 10) -> list[MatchSummary]:
        """The channel's last ``n`` matches (finished or not), newest first."""
        async with self._tx(write=False) as db:
            rows = await _all(
                db,
                "SELECT m.*, EXISTS (SELECT 1 FROM hand_seats AS s JOIN hands AS h"
                " ON h.id = s.hand_id WHERE h.match_id = m.id AND s.user_id IS NULL)"
                " AS computer_hands FROM matches AS m WHERE m.channel_id = ?"
                " ORDER BY m.started_at DESC, m.id DESC LIMIT ?",
                channel_id, n,
            )
            out = []
            for r in rows:
                seats = await _all(db, "SELECT * FROM match_seats WHERE match_id = ?", r["id"])
                players = _players(seats)
                out.append(MatchSummary(
                    id=r["id"], match_key=r["match_key"], table_id=r["table_id"],
                    channel_id=r["channel_id"], players=players, levels_a=r["levels_a"],
                    levels_b=r["levels_b"], winner_team=r["winner_team"],
                    hands_played=r["hands_played"],
                    has_computers=None in players or bool(r["computer_hands"]),
                    ranked=bool(r["ranked"]), started_at=r["started_at"],
                    ended_at=_opt_float(r["ended_at"]),
                ))
        return out

    async def stats(
        self, guild_id: int, user_id: int, *, include_computers: bool = True
    ) -> UserStats:
        """A player's record in a guild (see `UserStats`).

        ``include_computers=False`` counts only ranked matches (four distinct humans).
        The favourite partner is the human partner of the most finished matches
        (ties: most wins together, then lowest id).
        """
        ranked_only = "" if include_computers else " AND ranked = 1"
        partner_ranked_only = "" if include_computers else " AND me.ranked = 1"
        async with self._tx(write=False) as db:
            m = await _one(
                db,
                "SELECT COUNT(DISTINCT match_id) AS played,"
                " COUNT(DISTINCT CASE WHEN won THEN match_id END) AS won"
                f" FROM finished_match_seats WHERE guild_id = ? AND user_id = ?{ranked_only}",
                guild_id, user_id,
            )
            sides = {
                r["side"]: r for r in await _all(
                    db,
                    "SELECT side, COUNT(*) AS n, SUM(result_side = side) AS held,"
                    " SUM(levels_gained) AS levels, AVG(opponent_points) AS avg_points"
                    " FROM settled_hand_seats WHERE guild_id = ? AND user_id = ?"
                    f"{ranked_only} GROUP BY side",
                    guild_id, user_id,
                )
            }
            partner = await _one(
                db,
                "SELECT p.user_id, COUNT(DISTINCT me.match_id) AS n,"
                " COUNT(DISTINCT CASE WHEN me.won THEN me.match_id END) AS w"
                " FROM finished_match_seats AS me JOIN finished_match_seats AS p"
                " ON p.match_id = me.match_id AND p.seat = (me.seat + 2) % 4"
                " WHERE me.guild_id = ? AND me.user_id = ? AND p.user_id <> me.user_id"
                f"{partner_ranked_only}"
                " GROUP BY p.user_id ORDER BY n DESC, w DESC, p.user_id LIMIT 1",
                guild_id, user_id,
            )
            rating = await _one(
                db, "SELECT mu, sigma, hands FROM ratings WHERE guild_id = ? AND user_id = ?",
                guild_id, user_id,
            )
        assert m is not None
        decl, opp = sides.get("declarers"), sides.get("opponents")
        return UserStats(
            guild_id=guild_id,
            user_id=user_id,
            matches_played=int(m["played"]),
            matches_won=int(m["won"]),
            hands_as_declarers=int(decl["n"]) if decl else 0,
            held_as_declarers=int(decl["held"]) if decl else 0,
            hands_as_opponents=int(opp["n"]) if opp else 0,
            held_as_opponents=int(opp["held"]) if opp else 0,
            levels_gained=sum(int(r["levels"]) for r in sides.values()),
            avg_points_as_opponents=float(opp["avg_points"]) if opp else None,
            favourite_partner=int(partner["user_id"]) if partner else None,
            matches_with_favourite=int(partner["n"]) if partner else 0,
            rating=ratings.display_rating(rating["mu"], rating["sigma"]) if rating else None,
            rated_hands=int(rating["hands"]) if rating else 0,
        )

    async def leaderboard(
        self,
        guild_id: int,
        by: LeaderboardBy,
        scope: LeaderboardScope,
        page: int = 1,
        per_page: int = 10,
    ) -> LeaderboardPage:
        """One page (1-based) of a guild leaderboard, from ranked matches only.

        by="rating": rated entries, display rating desc (then more rated hands);
        by="wins": entries with a finished match, wins desc (then fewer matches);
        by="levels": entries with a settled hand, levels gained desc (then fewer hands).
        Partnerships are unordered user pairs that sat as partners. Equal sort keys share
        a rank. A page past the end has no rows.
        """
        if page < 1 or per_page < 1:
            raise ValueError("page and per_page must be >= 1")
        if by not in _ORDER or scope not in _ENTITIES:
            raise ValueError(f"bad leaderboard {by!r}/{scope!r}")
        keys, filter_ = _ORDER[by]
        sql = (
            f"{_ENTITIES[scope]}, board AS (SELECT ids.u1, ids.u2,"
            " r.mu - 3 * r.sigma AS rating, COALESCE(r.hands, 0) AS rated_hands,"
            " COALESCE(m.matches, 0) AS matches, COALESCE(m.wins, 0) AS wins,"
            " COALESCE(l.levels, 0) AS levels, COALESCE(l.hands, 0) AS hands"
            " FROM ids LEFT JOIN m USING (u1, u2) LEFT JOIN l USING (u1, u2)"
            f" LEFT JOIN r USING (u1, u2) WHERE {filter_})"
        )
        async with self._tx(write=False) as db:
            total_row = await _one(db, f"{sql} SELECT COUNT(*) FROM board", guild_id)
            assert total_row is not None
            total = int(total_row[0])
            rows = await _all(
                db,
                f"{sql} SELECT *, RANK() OVER (ORDER BY {keys}) AS rank FROM board"
                f" ORDER BY {keys}, u1, u2 LIMIT ? OFFSET ?",
                guild_id, per_page, (page - 1) * per_page,
            )
        return LeaderboardPage(
            by=by, scope=scope, page=page, per_page=per_page, total_rows=total,
            total_pages=max(1, math.ceil(total / per_page)),
            rows=[
                LeaderboardRow(
                    rank=int(r["rank"]),
                    users=(int(r["u1"]),) if r["u2"] < 0 else (int(r["u1"]), int(r["u2"])),
                    rating=_opt_float(r["rating"]), rated_hands=int(r["rated_hands"]),
                    matches=int(r["matches"]), wins=int(r["wins"]), levels=int(r["levels"]),
                    hands=int(r["hands"]),
                )
                for r in rows
            ],
        )

    # ------------------------------------------------------------------ settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A guild's settings (defaults if never set)."""
        async with self._tx(write=False) as db:
            row = await _one(db, "SELECT * FROM guilds WHERE guild_id = ?", guild_id)
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, row["language"], json.loads(row["table_options"]))

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        language: str | _Unset = UNSET,
        table_options: dict[str, Any] | _Unset = UNSET,
    ) -> GuildSettings:
        """Change some of a guild's settings; returns them all."""
        if language is not UNSET and not (isinstance(language, str) and language):
            raise ValueError("language must be a non-empty string")
        if table_options is not UNSET and not isinstance(table_options, dict):
            raise ValueError("table_options must be a dict")
        async with self._tx(write=True) as db:
            now = self._clock()
            await _ensure_guild(db, guild_id, now)
            row = await _one(db, "SELECT * FROM guilds WHERE guild_id = ?", guild_id)
            assert row is not None
            new = GuildSettings(
                guild_id,
                row["language"] if isinstance(language, _Unset) else language,
                json.loads(row["table_options"]) if isinstance(table_options, _Unset)
                else table_options,
            )
            await db.execute(
                "UPDATE guilds SET language = ?, table_options = ?, updated_at = ?"
                " WHERE guild_id = ?",
                (new.language, _dumps(new.table_options), now, guild_id),
            )
        return GuildSettings(guild_id, new.language, json.loads(_dumps(new.table_options)))

    async def user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (defaults if never set)."""
        async with self._tx(write=False) as db:
            row = await _one(db, "SELECT * FROM user_settings WHERE user_id = ?", user_id)
        return UserSettings(user_id) if row is None else _user_settings(row)

    async def set_user_settings(
        self,
        user_id: int,
        *,
        four_colour: bool | _Unset = UNSET,
        panel: PanelMode | _Unset = UNSET,
        language: str | _Unset | None = UNSET,
    ) -> UserSettings:
        """Change some of a user's settings (``language=None`` clears the override)."""
        if four_colour is not UNSET and not isinstance(four_colour, bool):
            raise ValueError("four_colour must be a bool")
        if panel is not UNSET and panel not in ("dm", "ephemeral"):
            raise ValueError(f"panel must be 'dm' or 'ephemeral', got {panel!r}")
        if language is not UNSET and language is not None and not (
            isinstance(language, str) and language
        ):
            raise ValueError("language must be a non-empty string or None")
        async with self._tx(write=True) as db:
            row = await _one(db, "SELECT * FROM user_settings WHERE user_id = ?", user_id)
            old = UserSettings(user_id) if row is None else _user_settings(row)
            new = UserSettings(
                user_id,
                old.four_colour if isinstance(four_colour, _Unset) else four_colour,
                old.panel if isinstance(panel, _Unset) else panel,
                old.language if isinstance(language, _Unset) else language,
            )
            await db.execute(
                "INSERT INTO user_settings (user_id, four_colour, panel, language, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " four_colour = excluded.four_colour, panel = excluded.panel,"
                " language = excluded.language, updated_at = excluded.updated_at",
                (user_id, int(new.four_colour), new.panel, new.language, self._clock()),
            )
        return new


# ---------------------------------------------------------------------- SQL helpers

# Leaderboard entities keyed (u1, u2): players have u2 = -1, partnerships u1 < u2.
_ENTITIES: dict[str, str] = {
    "players": (
        "WITH m AS (SELECT user_id AS u1, -1 AS u2, COUNT(DISTINCT match_id) AS matches,"
        " COUNT(DISTINCT CASE WHEN won THEN match_id END) AS wins FROM finished_match_seats"
        " WHERE guild_id = ?1 AND ranked = 1 GROUP BY user_id),"
        " l AS (SELECT user_id AS u1, -1 AS u2, SUM(levels_gained) AS levels, COUNT(*) AS hands"
        " FROM settled_hand_seats WHERE guild_id = ?1 AND ranked = 1 GROUP BY user_id),"
        " r AS (SELECT user_id AS u1, -1 AS u2, mu, sigma, hands FROM ratings"
        " WHERE guild_id = ?1),"
        " ids AS (SELECT u1, u2 FROM m UNION SELECT u1, u2 FROM l UNION SELECT u1, u2 FROM r)"
    ),
    "partnerships": (
        "WITH m AS (SELECT MIN(a.user_id, b.user_id) AS u1, MAX(a.user_id, b.user_id) AS u2,"
        " COUNT(DISTINCT a.match_id) AS matches,"
        " COUNT(DISTINCT CASE WHEN a.won THEN a.match_id END) AS wins"
        " FROM finished_match_seats AS a JOIN finished_match_seats AS b"
        " ON b.match_id = a.match_id AND b.seat = a.seat + 2"
        " WHERE a.guild_id = ?1 AND a.ranked = 1 GROUP BY 1, 2),"
        " l AS (SELECT MIN(a.user_id, b.user_id) AS u1, MAX(a.user_id, b.user_id) AS u2,"
        " SUM(a.levels_gained) AS levels, COUNT(*) AS hands"
        " FROM settled_hand_seats AS a JOIN settled_hand_seats AS b"
        " ON b.hand_id = a.hand_id AND b.seat = a.seat + 2"
        " WHERE a.guild_id = ?1 AND a.ranked = 1 GROUP BY 1, 2),"
        " r AS (SELECT user_lo AS u1, user_hi AS u2, mu, sigma, hands FROM pair_ratings"
        " WHERE guild_id = ?1),"
        " ids AS (SELECT u1, u2 FROM m UNION SELECT u1, u2 FROM l UNION SELECT u1, u2 FROM r)"
    ),
}
# by -> (sort keys, which also define ties for RANK(), row filter)
_ORDER: dict[str, tuple[str, str]] = {
    "rating": ("rating DESC, rated_hands DESC", "r.mu IS NOT NULL"),
    "wins": ("wins DESC, matches ASC", "m.matches > 0"),
    "levels": ("levels DESC, hands ASC", "l.hands > 0"),
}


async def _one(db: aiosqlite.Connection, sql: str, *params: Any) -> sqlite3.Row | None:
    async with db.execute(sql, params) as cur:
        return await cur.fetchone()


async def _all(db: aiosqlite.Connection, sql: str, *params: Any) -> list[sqlite3.Row]:
    return cast(list[sqlite3.Row], list(await db.execute_fetchall(sql, params)))


async def _ensure_guild(db: aiosqlite.Connection, guild_id: int, now: float) -> None:
    await db.execute(
        "INSERT INTO guilds (guild_id, updated_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (guild_id, now),
    )


async def _put_seats(
    db: aiosqlite.Connection, table: str, key: str, key_id: int, players: Players
) -> None:
    await db.executemany(
        f"INSERT INTO {table} ({key}, seat, user_id) VALUES (?, ?, ?)"
        f" ON CONFLICT ({key}, seat) DO UPDATE SET user_id = excluded.user_id",
        [(key_id, seat, user) for seat, user in enumerate(players)],
    )


async def _hands(db: aiosqlite.Connection, where: str, *params: Any) -> list[HandRecord]:
    rows = await _all(
        db,
        "SELECT h.*, m.match_key FROM hands AS h JOIN matches AS m ON m.id = h.match_id"
        f" WHERE {where} ORDER BY h.hand_no, h.id",
        *params,
    )
    out = []
    for r in rows:
        seats = await _all(db, "SELECT * FROM hand_seats WHERE hand_id = ?", r["id"])
        d1, d2 = _opt_int(r["declarer_1"]), _opt_int(r["declarer_2"])
        out.append(HandRecord(
            id=r["id"], hand_key=r["hand_key"], match_key=r["match_key"],
            table_id=r["table_id"], hand_no=r["hand_no"], seed=int(r["seed"]),
            level=r["level"], trump=r["trump"], starter=_opt_int(r["starter"]),
            declarers=None if d1 is None or d2 is None else (d1, d2),
            players=_players(seats), kitty=json.loads(r["kitty"]),
            opponent_points=r["opponent_points"], kitty_points=r["kitty_points"],
            multiplier=r["multiplier"], result_side=cast(Side | None, r["result_side"]),
            result_levels=r["result_levels"], actions=[],
        ))
    return out


def _table(row: sqlite3.Row) -> StoredTable:
    return StoredTable(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        creator_id=int(row["creator_id"]),
        status=cast(TableStatus, row["status"]),
        version=int(row["version"]),
        doc=json.loads(row["doc"]),
        deadline=_opt_float(row["deadline"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
    )


def _user_settings(row: sqlite3.Row) -> UserSettings:
    return UserSettings(
        int(row["user_id"]), bool(row["four_colour"]), cast(PanelMode, row["panel"]),
        row["language"],
    )

