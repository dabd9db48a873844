"""The SQLite file behind `Store`: one writer thread, a few reader threads (WAL).

Every transaction is one job run start to finish on a database thread (see
`bot.storage.threads`), so the event loop never waits for SQLite. Reads run on their own
connections and, thanks to WAL, never wait behind a write (ours or another process's).
Writes are serialised on the writer; each must get the database within ``write_timeout``
seconds of being asked (queueing included) or raises `StorageBusy` with nothing written.
SQLite errors that mean "cannot write" or "damaged" become `DatabaseNotWritable` and
`DatabaseCorrupt`; anything else (a bug) is raised as is.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from bot.storage.errors import DatabaseCorrupt, DatabaseNotWritable, StorageBusy
from bot.storage.interface import DEFAULT_READERS, DEFAULT_WRITE_TIMEOUT, Job
from bot.storage.threads import Threaded

from .migrate import check_header, inspect, is_corruption, migrate

T = TypeVar("T")

OPEN_TIMEOUT = 5.0
"""Seconds opening (migrations included) may wait for another process's write lock."""

_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_UNWRITABLE = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR,
               sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM}


def translate(exc: sqlite3.Error, path: str, timeout: float) -> Exception:
    """The `StorageError` an sqlite3 error means, or ``exc`` itself (a bug, raised as is)."""
    if is_corruption(exc):
        return DatabaseCorrupt(path, str(exc))
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary in _BUSY:
        return StorageBusy(path, timeout)
    if primary in _UNWRITABLE:
        return DatabaseNotWritable(path, str(exc))
    return exc


@contextlib.contextmanager
def translated(path: str, timeout: float) -> Iterator[None]:
    """Raise sqlite3 errors inside the block as what they mean (see `translate`)."""
    try:
        yield
    except sqlite3.Error as exc:
        error = translate(exc, path, timeout)
        if error is exc:
            raise
        raise error from exc


def _connect(path: str, *, timeout: float, query_only: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                           check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    if query_only:
        conn.execute("PRAGMA query_only = ON")
    return conn


def _prove_writable(conn: sqlite3.Connection) -> None:
    """Commit a write that changes nothing: fails on a read-only file or folder or a full
    disk, which SQLite otherwise only reports at the first real write."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("UPDATE schema_version SET applied_at = applied_at"
                     " WHERE version = (SELECT MAX(version) FROM schema_version)")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _open_connections(path: str, clock: Callable[[], float], readers: int,
                      read_timeout: float) -> tuple[sqlite3.Connection, list[sqlite3.Connection]]:
    """Check, migrate and prove writable (on the writer), then open the readers."""
    opened: list[sqlite3.Connection] = []
    try:
        writer = _connect(path, timeout=OPEN_TIMEOUT, query_only=False)
        opened.append(writer)
        inspect(writer, path)  # read-only: raises before anything is written
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA synchronous = NORMAL")  # with WAL: durable up to an OS crash
        migrate(writer, clock)
        _prove_writable(writer)
        if path != ":memory:":  # a second :memory: connection would be another database
            for _ in range(readers):
                opened.append(_connect(path, timeout=read_timeout, query_only=True))
    except BaseException:
        for conn in reversed(opened):
            conn.close()
        raise
    return opened[0], opened[1:]


def _busy_ms(remaining: float) -> int:
    """The writer's ``busy_timeout`` for a write with `remaining` seconds of its budget: in
    steps of 100 ms rounded down (never past the budget; below 100 ms, to the ms), so that
    writes that start without queueing all share one setting instead of preparing a new
    ``PRAGMA`` statement each."""
    ms = max(1, int(remaining * 1000))
    return ms if ms < 100 else ms - ms % 100


class Database(Threaded):
    """Runs transactions on database threads (a `bot.storage.interface.Engine`). Open with
    `Database.open`."""

    kind = "sqlite"

    def __init__(self, path: str, writer: sqlite3.Connection,
                 readers: list[sqlite3.Connection], write_timeout: float) -> None:
        """Use `Database.open`."""
        super().__init__(path)
        self.write_timeout = write_timeout
        self._writer = writer
        self._readers = readers
        self._write_pool = ThreadPoolExecutor(1, thread_name_prefix="tractor-db-write")
        self._read_pool = (ThreadPoolExecutor(len(readers), thread_name_prefix="tractor-db-read")
                           if readers else self._write_pool)
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        for conn in readers or [writer]:
            self._idle.put(conn)
        self._busy = -1
        """The writer's ``busy_timeout`` (ms) last set (on the writer thread only)."""

    @classmethod
    async def open(cls, path: str, *, clock: Callable[[], float],
                   write_timeout: float = DEFAULT_WRITE_TIMEOUT,
                   readers: int = DEFAULT_READERS) -> Database:
        """Open (creating parent folders), check, enable WAL, migrate, prove writable.

        Raises `DatabaseCorrupt` or `SchemaTooNew` without modifying the file, and
        `DatabaseNotWritable` when it cannot be opened or written.
        """
        if write_timeout <= 0 or readers < 0:
            raise ValueError("write_timeout must be > 0 and readers >= 0")
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                check_header(path)
            with translated(path, OPEN_TIMEOUT):
                writer, reader_conns = await asyncio.to_thread(
                    _open_connections, path, clock, readers, write_timeout)
        except OSError as exc:
            raise DatabaseNotWritable(path, exc.strerror or str(exc)) from exc
        return cls(path, writer, reader_conns, write_timeout)

    async def read(self, job: Job[T]) -> T:
        """Run ``job`` in one read transaction (a consistent snapshot) on a reader."""
        return await self._submit(self._read_pool, self._read, job)

    async def write(self, job: Job[T], *, verify: Job[T | None] | None = None) -> T:
        """Run ``job`` in one ``BEGIN IMMEDIATE`` transaction on the writer; commit if it
        returns, roll back if it raises. `StorageBusy` if the database could not be had
        within ``write_timeout`` seconds from now. Cancelling the caller cancels the job
        if it has not started; else the cancellation waits for it to finish. ``verify`` is
        not needed: SQLite's COMMIT is local, its outcome always known."""
        # perf_counter, not monotonic: simulated clocks (SimCord) patch time.monotonic
        deadline = time.perf_counter() + self.write_timeout
        return await self._submit(self._write_pool, self._write, job, deadline)

    async def close(self) -> None:
        """Finish queued transactions, then close every connection (the writer last, which
        checkpoints the WAL). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await asyncio.to_thread(self._shutdown)

    # ---- on the database threads --------------------------------------------------------

    def _read(self, job: Job[T]) -> T:
        conn = self._idle.get()
        try:
            return self._transaction(conn, "BEGIN", job)
        finally:
            self._idle.put(conn)

    def _write(self, job: Job[T], deadline: float) -> T:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:  # waited its whole budget behind our own writes
            raise StorageBusy(self.path, self.write_timeout)
        busy = _busy_ms(remaining)
        if busy != self._busy:  # a statement of its own: only when the budget changed
            with translated(self.path, self.write_timeout):
                self._writer.execute(f"PRAGMA busy_timeout = {busy}")
            self._busy = busy
        return self._transaction(self._writer, "BEGIN IMMEDIATE", job)

    def _transaction(self, conn: sqlite3.Connection, begin: str, job: Job[T]) -> T:
        with translated(self.path, self.write_timeout):
            conn.execute(begin)
            try:
                result = job(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
        return result

    def _shutdown(self) -> None:
        self._read_pool.shutdown(wait=True)
        self._write_pool.shutdown(wait=True)
        for conn in self._readers:
            conn.close()
        with contextlib.suppress(sqlite3.Error):
            self._writer.execute("PRAGMA optimize")
        self._writer.close()

