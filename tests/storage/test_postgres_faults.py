"""PostgreSQL faults that must not stall a cluster (issue 37): the session timeouts every
connection gets, a session ended idle in a transaction (SQLSTATE 25P03) re-run as a lost
connection, the server's "unavailable" classes, the jittered backoff, and the fence held
until COMMIT (a save paused between its fence check and its commit is never overtaken by
a take-over)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import psycopg
import psycopg.errors
import pytest
from storage_helpers import FakeClock

from bot.storage import Store
from bot.storage.cluster import ClusterStore, Fence, StaleOwner
from bot.storage.postgres import database as pg_database
from bot.storage.postgres.connection import IDLE_IN_TRANSACTION


def rows(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


async def wait_for(test: Any, what: str) -> None:
    """Wait (on events the server reports, not on a speed) until `test()` is true."""
    for _ in range(3000):
        if await asyncio.to_thread(test):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def test_every_connection_ends_a_transaction_left_idle_well_below_the_lease(
        pg_url: str, clock: FakeClock) -> None:
    store = await Store.open(pg_url, clock=clock)
    try:
        shown = await store._db.read(lambda db: [db.execute(f"SHOW {name}").fetchone()[0]
                                                 for name in (
            "idle_in_transaction_session_timeout", "statement_timeout", "lock_timeout")])
        assert shown == [f"{IDLE_IN_TRANSACTION:g}s", "10s", "10s"]
        assert IDLE_IN_TRANSACTION * 3 <= 15  # the production lease
    finally:
        await store.close()


async def test_a_session_ended_idle_in_a_transaction_is_a_lost_connection_run_again(
        pg_url: str, clock: FakeClock) -> None:
    """The server ends a transaction left idle (25P03, as after a SIGSTOP): the write is
    run again on another connection and commits once (it used to escape untranslated)."""
    store = await Store.open(pg_url, clock=clock, write_timeout=60)
    attempts: list[int] = []

    def job(db: Any) -> int:
        attempts.append(1)
        db.execute("INSERT INTO guilds (guild_id, updated_at) VALUES (?, 0)",
                   (len(attempts) + 200,))
        if len(attempts) == 1:
            db.execute("SET LOCAL idle_in_transaction_session_timeout = 50")
            pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]
            while rows(pg_url, "SELECT 1 FROM pg_stat_activity WHERE pid = %s", pid):
                time.sleep(0.01)  # "paused" until the server ended the session
            db.execute("SELECT 1")
        return len(attempts)

    try:
        assert await store._db.write(job) == 2
        assert rows(pg_url, "SELECT guild_id FROM guilds") == [(202,)]
    finally:
        await store.close()


@pytest.mark.parametrize(("error", "expected"), [
    (psycopg.errors.IdleInTransactionSessionTimeout, True),  # 25P03
    (psycopg.errors.AdminShutdown, True),  # 57P01
    (psycopg.errors.CrashShutdown, True),  # 57P02
    (psycopg.errors.CannotConnectNow, True),  # 57P03
    (psycopg.errors.ConnectionFailure, True),  # 08006
    (psycopg.errors.QueryCanceled, False),  # 57014: busy
    (psycopg.errors.ReadOnlySqlTransaction, False),  # 25006: no rights
    (psycopg.errors.UniqueViolation, False),
])
def test_classes_08_25_and_57_are_the_database_unavailable(error: type[psycopg.Error],
                                                          expected: bool) -> None:
    assert pg_database.unavailable(error()) is expected


def test_serialisation_retries_back_off_with_jitter_within_the_deadline() -> None:
    top = [pg_database.backoff(n, 10.0, lambda: 1.0) for n in range(12)]
    assert top[0] == pg_database.BACKOFF_FIRST and top == sorted(top)
    assert top[-1] == pg_database.BACKOFF_MOST
    assert pg_database.backoff(3, 10.0, lambda: 0.5) == top[3] / 2  # jittered
    assert pg_database.backoff(20, 0.001, lambda: 1.0) == 0.001  # never past the deadline


async def test_a_take_over_waits_for_a_save_paused_before_its_commit(
        pg_url: str) -> None:
    """A's save has passed its fence check and is paused before COMMIT, its lease run out;
    B's take-over waits on the lease row until A's save is over, so A's save is the old
    owner's last (never a commit after the take-over), and A's next save is refused."""
    clock = FakeClock()
    a_store = await Store.open(pg_url, clock=clock, write_timeout=60)
    b_store = await Store.open(pg_url, clock=clock, write_timeout=60)
    try:
        a, b = ClusterStore(a_store, clock=clock), ClusterStore(b_store, clock=clock)
        epoch = await a.acquire(0, "a", 10)
        assert epoch == 1
        a_store.fence = Fence("a", 1, {0: epoch}, clock=clock)
        table = await a_store.create_table(1 << 22, 60, 7, {"n": 1})
        checked, release = threading.Event(), threading.Event()

        def paused(db: Any) -> None:
            checked.set()
            assert release.wait(60)
            db.execute("UPDATE tables SET doc = ? WHERE id = ?", ('{"n": "a"}', table.id))

        save = asyncio.ensure_future(a_store._db.write(a_store._fenced(paused,
                                                                       table_id=table.id)))
        await asyncio.to_thread(checked.wait, 60)
        clock.now += 60  # A's lease has run out while it is paused
        take_over = asyncio.ensure_future(b.acquire(0, "b", 10))
        await wait_for(lambda: take_over.done() or rows(
            pg_url, "SELECT 1 FROM pg_locks WHERE NOT granted"), "B waits for the row")
        assert not take_over.done()  # B cannot commit while A's save is open
        release.set()
        await save
        assert await take_over == 2
        with pytest.raises(StaleOwner):
            await a_store.save_table(table.id, 1, {"n": "late"})
        assert rows(pg_url, "SELECT doc::text FROM tables") == [('{"n": "a"}',)]
    finally:
        await a_store.close()
        await b_store.close()
