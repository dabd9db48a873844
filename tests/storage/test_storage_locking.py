"""Another process holding the database's write lock: reads go on, writes are bounded.

The lock is real: a second SQLite connection (or a second process) in ``BEGIN IMMEDIATE``
with a pending write. Assertions are about order and outcome, never elapsed time: the
foreign lock is still held when a read completes or a write gives up.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest
from storage_helpers import FakeClock

from bot.storage import StaleVersion, StorageBusy, StorageError, Store, StoredTable

GENEROUS = 60.0  # a write timeout no test run reaches: the write must be waiting, not failing


@contextmanager
def foreign_write_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Hold the write lock from another connection, with a write of our own pending."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE guilds SET updated_at = updated_at + 1")
        yield conn
        assert conn.in_transaction  # still held when the block ends
        conn.execute("ROLLBACK")
    finally:
        conn.close()


LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE guilds SET updated_at = updated_at + 1")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
print("released", flush=True)
"""


@asynccontextmanager
async def foreign_process_lock(path: Path) -> AsyncIterator[subprocess.Popen[str]]:
    """Hold the write lock from another process until the block ends."""
    proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert await asyncio.to_thread(proc.stdout.readline) == "locked\n"
        yield proc
        assert proc.poll() is None  # still holding the lock
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert await asyncio.to_thread(proc.stdout.readline) == "released\n"
    finally:
        proc.kill()
        await asyncio.to_thread(proc.wait)


async def open_store(path: Path, timeout: float) -> Store:
    return await Store.open(path, clock=FakeClock(), write_timeout=timeout)


async def two_tables(store: Store) -> tuple[StoredTable, StoredTable]:
    return (await store.create_table(1, 10, 7, {"n": 1}),
            await store.create_table(1, 20, 8, {"n": 2}))


async def test_reads_complete_while_another_process_holds_a_write(db_path: Path) -> None:
    store = await open_store(db_path, GENEROUS)
    try:
        a, b = await two_tables(store)
        await store.set_user_settings(8, panel="ephemeral")
        async with foreign_process_lock(db_path):
            stalled = asyncio.create_task(store.save_table(a.id, 1, {"n": 11}))
            # every kind of read, at the other table and elsewhere, while the write waits
            assert await store.load_table(b.id) == b
            assert await store.table_in_channel(20) == b
            assert [t.id for t in await store.active_tables()] == [a.id, b.id]
            assert (await store.user_settings(8)).panel == "ephemeral"
            assert (await store.stats(1, 8, mode="teams")).matches_played == 0
            assert (await store.leaderboard(1, "wins", "players", mode="teams")).rows == []
            assert (await store.guild_settings(1)).language == "en"
            assert not stalled.done()  # the write is still waiting for the foreign lock
        saved = await stalled  # the lock was released within the write's timeout
        assert saved.version == 2 and (await store.load_table(a.id)) == saved
    finally:
        await store.close()


async def test_write_that_cannot_get_the_database_raises_storage_busy(db_path: Path) -> None:
    store = await open_store(db_path, 0.2)
    try:
        a, _ = await two_tables(store)
        with foreign_write_lock(db_path):
            with pytest.raises(StorageBusy) as busy:
                await store.save_table(a.id, 1, {"n": 11})
            assert isinstance(busy.value, StorageError) and busy.value.timeout == 0.2
            assert "try again" in str(busy.value) and "\n" not in str(busy.value)
            with pytest.raises(StorageBusy):
                await store.create_table(1, 30, 9, {})
            with pytest.raises(StorageBusy):
                await store.set_guild_settings(1, language="zh_Hans")
            assert await store.load_table(a.id) == a  # nothing written; reads fine
        # the compare-and-set is intact: the same version saves once the lock is gone
        saved = await store.save_table(a.id, 1, {"n": 11})
        assert saved.version == 2
        with pytest.raises(StaleVersion):
            await store.save_table(a.id, 1, {"n": 12})
        assert await store.table_in_channel(30) is None
    finally:
        await store.close()


async def test_writes_queued_behind_a_stalled_write_are_bounded_too(db_path: Path) -> None:
    store = await open_store(db_path, 0.3)
    try:
        a, b = await two_tables(store)
        with foreign_write_lock(db_path):
            results = await asyncio.gather(
                store.save_table(a.id, 1, {"n": 11}), store.save_table(b.id, 1, {"n": 21}),
                store.set_user_settings(5, four_colour=False), return_exceptions=True)
            assert all(isinstance(r, StorageBusy) for r in results), results
            assert await store.load_table(b.id) == b
        await store.save_table(b.id, 1, {"n": 21})  # and all is well afterwards
    finally:
        await store.close()


async def test_cancelled_write_still_queued_never_runs(db_path: Path) -> None:
    store = await open_store(db_path, GENEROUS)
    try:
        a, b = await two_tables(store)
        with foreign_write_lock(db_path):
            first = asyncio.create_task(store.save_table(a.id, 1, {"n": 11}))
            queued = asyncio.create_task(store.save_table(b.id, 1, {"n": 21}))
            await asyncio.sleep(0)
            queued.cancel()
            with pytest.raises(asyncio.CancelledError):
                await queued
            assert not first.done()
        assert (await first).version == 2
        assert await store.load_table(b.id) == b  # the cancelled save was never applied
    finally:
        await store.close()


async def test_cancelling_a_running_write_waits_until_it_has_finished(db_path: Path) -> None:
    store = await open_store(db_path, GENEROUS)
    try:
        a, _ = await two_tables(store)
        begun = threading.Event()
        store._db._writer.set_trace_callback(
            lambda sql: begun.set() if sql.startswith("BEGIN") else None)
        with foreign_write_lock(db_path) as lock:
            task = asyncio.create_task(store.save_table(a.id, 1, {"n": 11}))
            assert await asyncio.to_thread(begun.wait, GENEROUS)  # blocked on the lock
            task.cancel()
            for _ in range(20):
                await asyncio.sleep(0)
            assert not task.done()  # the transaction cannot be interrupted: it waits
            lock.execute("ROLLBACK")  # the foreign writer lets go; our write goes through
            with pytest.raises(asyncio.CancelledError):
                await task
            lock.execute("BEGIN IMMEDIATE")  # (the context manager expects to hold it)
        store._db._writer.set_trace_callback(None)
        saved = await store.load_table(a.id)  # settled when the cancellation arrived
        assert saved is not None and saved.version == 2
    finally:
        await store.close()


async def test_two_stores_compare_and_set_under_contention(
    db_path: Path, clock: FakeClock
) -> None:
    """Two processes' worth of stores racing on one table: exactly one save per version."""
    a = await Store.open(db_path, clock=clock, write_timeout=GENEROUS)
    b = await Store.open(db_path, clock=clock, write_timeout=GENEROUS)
    try:
        t = await a.create_table(1, 100, 11, {"v": 0})
        for version in range(1, 21):
            results = await asyncio.gather(
                a.save_table(t.id, version, {"who": "a"}),
                b.save_table(t.id, version, {"who": "b"}),
                a.save_table(t.id, version, {"who": "a2"}), return_exceptions=True)
            assert sum(isinstance(r, StoredTable) for r in results) == 1, results
            assert sum(isinstance(r, StaleVersion) for r in results) == 2, results
        final = await b.load_table(t.id)
        assert final is not None and final.version == 21
    finally:
        await a.close()
        await b.close()


async def test_closed_store_refuses_calls(db_path: Path) -> None:
    store = await open_store(db_path, 1.0)
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StorageError, match="closed"):
        await store.load_table(1)
    with pytest.raises(StorageError, match="closed"):
        await store.create_table(1, 2, 3, {})


async def test_a_simulated_monotonic_clock_does_not_time_writes_out(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SimCord patches time.monotonic to its virtual clock, which may jump hours ahead."""
    store = await open_store(db_path, 1.0)
    try:
        jumps = iter(range(0, 10**9, 3600))
        monkeypatch.setattr("time.monotonic", lambda: float(next(jumps)))
        a, _ = await two_tables(store)
        assert (await store.save_table(a.id, 1, {"n": 11})).version == 2
    finally:
        await store.close()
