"""PostgreSQL beside SQLite (issue 28): what a second process, a second pool and a real
server's faults can do that SQLite's single writer hid. Runs on the throwaway server of
tests/pg.py (skipped, with one line, without PostgreSQL)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pg import PgServer, start_server, stopped
from storage_helpers import FakeClock

from bot.storage import (
    DatabaseCorrupt,
    DatabaseNotWritable,
    DatabaseUnavailable,
    HandRecord,
    MatchRecord,
    SchemaTooNew,
    StaleVersion,
    StorageBusy,
    StorageError,
    Store,
    StoredTable,
)
from bot.storage.postgres import database as pg_database
from bot.storage.ratings import Skill, rate_win
from bot.storage.schema import SCHEMA_VERSION


@pytest.fixture
async def two_stores(pg_url: str, clock: FakeClock) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores (two connection pools, as two processes have) on one database."""
    a = await Store.open(pg_url, clock=clock)
    b = await Store.open(pg_url, clock=clock)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


def rows(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()  # type: ignore[arg-type]


async def test_two_pools_racing_one_table_a_thousand_times_one_wins_each_round(
        two_stores: tuple[Store, Store]) -> None:
    """A versioned save is an atomic compare-and-set across processes: each round both
    save at the same version, exactly one wins and the other is refused as stale."""
    a, b = two_stores
    table = await a.create_table(1, 10, 7, {"round": 0})
    for n in range(1, 1001):
        results = await asyncio.gather(
            a.save_table(table.id, n, {"round": n, "by": "a"}),
            b.save_table(table.id, n, {"round": n, "by": "b"}), return_exceptions=True)
        won = [r for r in results if isinstance(r, StoredTable)]
        assert len(won) == 1 and sum(isinstance(r, StaleVersion) for r in results) == 1, (
            n, results)
    final = await b.load_table(table.id)
    assert final is not None and final.version == 1001 and final.doc["round"] == 1000


def _hand(table: StoredTable, match: MatchRecord, n: int) -> HandRecord:
    return HandRecord(hand_key=f"{match.match_key}:{n}", match_key=match.match_key,
                      table_id=table.id, hand_no=n, seed=n, level="2",
                      players=match.players, declarers=(0, 2), starter=0, mode="teams")


async def test_two_hands_sharing_a_player_settle_at_once_without_losing_a_rating(
        two_stores: tuple[Store, Store], pg_url: str) -> None:
    """Two tables of one server share player 1; their hands settle at the same moment
    through two stores, round after round. After each round the stored ratings are the
    previous ones with both hands applied one after the other (in either order): a lost
    read-modify-write would have applied only one of them to player 1."""
    a, b = two_stores
    lineups = ((1, 2, 3, 4), (1, 5, 6, 7))
    stores = (a, b)
    tables, matches = [], []
    for i, players in enumerate(lineups):
        table = await stores[i].create_table(1, 20 + i, players[0], {"t": i})
        tables.append(table)
        matches.append(MatchRecord(match_key=f"M{i}", table_id=table.id, guild_id=1,
                                   channel_id=20 + i, players=players, mode="teams",
                                   levels=("2",) * 4))

    def skills() -> dict[int, Skill]:
        return {u: Skill(mu, sigma) for u, mu, sigma in rows(
            pg_url, "SELECT user_id, mu, sigma FROM ratings WHERE mode = 'teams'")}

    def applied(before: dict[int, Skill], order: tuple[int, ...]) -> dict[int, Skill]:
        after = dict(before)
        for i in order:
            p = lineups[i]
            won, lost = rate_win([after.get(p[0], Skill()), after.get(p[2], Skill())],
                                 [after.get(p[1], Skill()), after.get(p[3], Skill())])
            after.update(zip((p[0], p[2], p[1], p[3]), (*won, *lost), strict=True))
        return after

    for n in range(1, 16):
        for i in (0, 1):  # deal (unsettled)
            tables[i] = await stores[i].save_table(
                tables[i].id, tables[i].version, {"hand": n}, status="playing",
                match=matches[i], hand=_hand(tables[i], matches[i], n))
        before = skills()
        settled = await asyncio.gather(*(stores[i].save_table(
            tables[i].id, tables[i].version, {"hand": n, "settled": True},
            match=replace(matches[i], hands_played=n),
            hand=replace(_hand(tables[i], matches[i], n), result_side="declarers",
                         result_levels=1, opponent_points=20)) for i in (0, 1)))
        tables = list(settled)
        after = skills()
        options = [applied(before, order) for order in ((0, 1), (1, 0))]
        assert any(all(after[u].mu == pytest.approx(o[u].mu) and
                       after[u].sigma == pytest.approx(o[u].sigma) for u in o)
                   for o in options), n
    assert rows(pg_url, "SELECT hands FROM ratings WHERE user_id = 1") == [(30,)]


def _open_in_a_process(url: str) -> subprocess.Popen[str]:
    code = ("import asyncio, sys\nfrom bot.storage import open_store\n"
            "async def main():\n    s = await open_store(sys.argv[1])\n    await s.close()\n"
            "asyncio.run(main())\nprint('open')")
    return subprocess.Popen([sys.executable, "-c", code, url], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_two_processes_migrating_one_empty_database_one_applies(pg_url: str) -> None:
    """Both start at once on an empty database: one migrates, the other waits for its
    advisory lock, then finds the schema there; the schema is applied once."""
    children = [_open_in_a_process(pg_url) for _ in range(2)]
    outs = [child.communicate(timeout=120) for child in children]
    assert [c.returncode for c in children] == [0, 0], outs
    assert rows(pg_url, "SELECT version FROM schema_version ORDER BY version") == [
        (v,) for v in range(5, SCHEMA_VERSION + 1)]  # each applied once


async def test_a_database_newer_than_the_code_is_refused_untouched(
        pg_url: str, clock: FakeClock) -> None:
    await (await Store.open(pg_url, clock=clock)).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version VALUES (%s, 'future', 1)",
                     (SCHEMA_VERSION + 1,))
    before = rows(pg_url, "SELECT * FROM schema_version ORDER BY version")
    with pytest.raises(SchemaTooNew):
        await Store.open(pg_url, clock=clock)
    assert rows(pg_url, "SELECT * FROM schema_version ORDER BY version") == before


async def test_a_database_of_something_else_is_refused_untouched(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id int)")
    with pytest.raises(DatabaseCorrupt, match="not a Tractor database"):
        await Store.open(pg_url)
    assert rows(pg_url, "SELECT to_regclass('tables') IS NULL") == [(True,)]


async def test_a_lock_wait_past_the_write_timeout_is_busy_and_writes_nothing(
        pg_url: str, clock: FakeClock) -> None:
    store = await Store.open(pg_url, clock=clock, write_timeout=0.3)
    try:
        table = await store.create_table(1, 30, 7, {"n": 1})
        with psycopg.connect(pg_url) as other:  # another process holds the row
            other.execute("SELECT * FROM tables WHERE id = %s FOR UPDATE", (table.id,))
            with pytest.raises(StorageBusy):
                await store.save_table(table.id, 1, {"n": 2})
            other.rollback()
        stored = await store.load_table(table.id)
        assert stored is not None and (stored.version, stored.doc) == (1, {"n": 1})
        assert (await store.save_table(table.id, 1, {"n": 2})).version == 2
    finally:
        await store.close()


async def test_a_lock_held_on_one_table_delays_no_other_table(
        pg_url: str, clock: FakeClock) -> None:
    """Another session holds table 1's row; table 2's save goes through while table 1's
    waits, and table 1's goes through once the lock is released."""
    store = await Store.open(pg_url, clock=clock, write_timeout=60)
    try:
        one = await store.create_table(1, 31, 7, {"n": 1})
        two = await store.create_table(1, 32, 7, {"n": 1})
        with psycopg.connect(pg_url) as other:
            other.execute("SELECT * FROM tables WHERE id = %s FOR UPDATE", (one.id,))
            waiting = asyncio.ensure_future(store.save_table(one.id, 1, {"n": 2}))
            for n in range(2, 6):
                two = await store.save_table(two.id, two.version, {"n": n})
            assert not waiting.done()
            other.rollback()
        assert (await waiting).version == 2
        assert two.version == 5
    finally:
        await store.close()


async def test_a_connection_lost_mid_transaction_is_retried_never_half_written(
        pg_url: str, clock: FakeClock) -> None:
    """The server drops the connection in the middle of a write (after its first
    statement): nothing of that attempt stays, and the job runs again on another
    connection and commits once."""
    store = await Store.open(pg_url, clock=clock)
    attempts: list[int] = []

    def job(db: Any) -> int:
        attempts.append(1)
        db.execute("INSERT INTO guilds (guild_id, updated_at) VALUES (?, 0)",
                   (len(attempts) + 100,))
        if len(attempts) == 1:
            db.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return len(attempts)

    try:
        assert await store._db.write(job) == 2
        assert rows(pg_url, "SELECT guild_id FROM guilds") == [(102,)]
    finally:
        await store.close()


@pytest.mark.parametrize("committed", [True, False])
async def test_a_lost_commit_is_resolved_by_reading_what_happened(
        pg_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
        committed: bool) -> None:
    """The connection breaks while COMMIT is on its way: whether it was applied or not,
    the save reports the table at the next version exactly once (never saved twice,
    never refused as stale by its own write)."""
    store = await Store.open(pg_url, clock=clock)
    once = pg_database.Database._once
    calls: list[str] = []

    def lossy(conn: Any, job: Any, begin: str) -> Any:
        if calls:
            return once(conn, job, begin)
        calls.append(begin)
        if committed:
            once(conn, job, begin)
        raise pg_database._Unknown from psycopg.OperationalError("server closed the"
                                                                 " connection")

    try:
        table = await store.create_table(1, 40, 7, {"n": 1})
        monkeypatch.setattr(pg_database.Database, "_once", staticmethod(lossy))
        saved = await store.save_table(table.id, 1, {"n": 2})
        assert (saved.version, saved.doc) == (2, {"n": 2})
        assert rows(pg_url, "SELECT version FROM tables") == [(2,)]
    finally:
        await store.close()


async def test_the_server_stopping_mid_game_then_coming_back_loses_nothing(
        clock: FakeClock) -> None:
    """A real restart of the server (its own, not the session's): while it is down a save
    is refused with nothing written; once it is back the same save goes through on fresh
    connections and everything saved before is there."""
    server: PgServer = start_server()
    try:
        url = server.new_database()
        store = await Store.open(url, clock=clock, write_timeout=1.0)
        try:
            table = await store.create_table(1, 50, 7, {"move": 0})
            for n in range(1, 4):
                table = await store.save_table(table.id, table.version, {"move": n})
            with stopped(server), pytest.raises(StorageError):
                await store.save_table(table.id, table.version, {"move": 4})
            table = await store.save_table(table.id, table.version, {"move": 4})
            stored = await store.load_table(table.id)
            assert stored is not None and (stored.version, stored.doc) == (5, {"move": 4})
        finally:
            await store.close()
    finally:
        server.stop("immediate")


@pytest.mark.parametrize("fault", ["unreachable", "password", "rights", "too-new"])
def test_a_database_server_the_bot_cannot_use_stops_the_start_in_one_line(
        pg_server: PgServer, tmp_path: Path, fault: str) -> None:
    """As SQLite faults do: one line, exit status 2, nothing sent to Discord, and the
    password never printed."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "bot"))
    from test_startup import TOKEN, assert_one_line, run_bot

    secret = "s3cret-Pa55"
    url = pg_server.new_database("start")
    name = url.split("/")[-1].split("?")[0]
    if fault == "unreachable":
        url = url.replace("%2Fsocket", "%2Fnowhere").replace("postgres@", f"u:{secret}@")
        words = "cannot use the database"
    elif fault == "password":
        pg_server.sql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname ="
                      " 'tractor_pw') THEN CREATE ROLE tractor_pw LOGIN PASSWORD 'right';"
                      " END IF; END $$")
        url = pg_server.url(name, user="tractor_pw", password=secret)
        words = "password authentication failed"
    elif fault == "rights":
        pg_server.sql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname ="
                      " 'tractor_ro') THEN CREATE ROLE tractor_ro LOGIN; END IF; END $$")
        url = pg_server.url(name, user="tractor_ro", password=secret)
        words = "cannot write the database"
    else:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE schema_version (version int PRIMARY KEY, name text,"
                         " applied_at float8)")
            conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
        words = "newer than this code"
    done = run_bot(tmp_path, "--database", url, DISCORD_TOKEN=TOKEN)
    line = assert_one_line(done, 2, words)
    assert secret not in done.stderr + done.stdout
    assert line.count("postgresql://") == 1
    assert not (tmp_path / "network-used").exists()


def test_database_url_is_read_from_the_environment(tmp_path: Path) -> None:
    from bot.runtime.config import Config, ConfigError

    config = Config.from_env({"DATABASE_URL": "postgresql://u:pw@h/db",
                              "DATABASE_PATH": "x.sqlite3"}, require_token=False)
    assert config.database_path == "postgresql://u:pw@h/db" and "pw" not in repr(config)
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        Config.from_env({"DATABASE_URL": "mysql://h/db"}, require_token=False)


def test_unavailable_and_not_writable_are_storage_errors() -> None:
    assert issubclass(DatabaseUnavailable, StorageError)
    assert issubclass(DatabaseNotWritable, StorageError)
