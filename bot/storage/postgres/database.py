"""The PostgreSQL server behind `Store`: a psycopg connection pool used from database threads.

Why psycopg 3's synchronous API (with ``psycopg_pool``) and not asyncpg: the storage layer
already runs every call as ONE whole transaction, start to finish, on a database thread
(`bot.storage.threads`), and answers the event loop through one mailbox, so a transaction
costs the loop one wakeup whatever it does. A synchronous driver keeps exactly that shape,
shares the query modules with SQLite, and keeps the wire protocol (parsing rows, building
messages) off the event loop, whose CPU per move is what the bot's latency is made of;
asyncpg would move that work onto the loop and need every query module written twice.

Transactions: writes run ``SERIALIZABLE`` (a table's versioned save, a rating's
read-modify-write and a season's numbering cannot lose an update between two processes;
a serialisation failure or deadlock re-runs the job, which reads the new state: the loser
of a save race then finds the table stale). The table save is also an
``UPDATE … WHERE version = …`` that counts rows (`bot.storage.tables`). Reads run
``REPEATABLE READ READ ONLY`` (one snapshot, never a serialisation failure).

Faults: a write must finish within ``write_timeout`` seconds of being asked (pool wait,
lock waits — ``lock_timeout`` — and retries included), else `StorageBusy`, nothing
written. A serialisation failure is re-run after a jittered, exponentially growing pause
(`backoff`), never at once: a frozen transaction that keeps failing others' must not turn
the retries into a storm. Every session ends a transaction left idle longer than
`connection.IDLE_IN_TRANSACTION` (set on connect), so a process paused mid-transaction
holds nobody up for long. The server's "unavailable" answers — SQLSTATE classes 08
(connection), 25 (such a session ended, e.g. 25P03) and 57 (operator intervention:
shutdown, crash, "cannot connect now"; not 57014, a cancelled statement, which is busy) —
are a lost connection: re-run on another while time remains, then `DatabaseUnavailable`.
A connection lost before COMMIT was sent rolled everything back on the server:
the job is run again on another connection while time remains. A connection lost during
COMMIT leaves the outcome unknown: the caller's ``verify`` job reads whether it happened
(a save: is the table at the new version with our document?), else the job runs again;
without ``verify``, `DatabaseUnavailable` says the change may not have been saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg
import psycopg.errors
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from bot.storage.address import display
from bot.storage.errors import (
    DatabaseNotWritable,
    DatabaseUnavailable,
    StorageBusy,
    StorageError,
)
from bot.storage.interface import DEFAULT_READERS, DEFAULT_WRITE_TIMEOUT, Job
from bot.storage.threads import Threaded

from .connection import PgConnection, configure
from .listen import Listener, Wake
from .migrate import migrate, prove_writable

T = TypeVar("T")

DEFAULT_WRITERS = 4
"""Writer threads (and connections): a write waiting on one table's row lock (another
process holding it) does not hold up the other tables' writes."""
CONNECT_TIMEOUT = 5
"""Seconds to reach the server when opening (and when the pool reconnects)."""
READ_TIMEOUT = 10.0
"""Seconds a read may take (pool wait and reconnecting included) before it fails."""

_BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
_RETRY = (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected)
_BUSY = (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled)
_NO_RIGHTS = (psycopg.errors.InsufficientPrivilege, psycopg.errors.ReadOnlySqlTransaction)
_LOST = (psycopg.OperationalError, psycopg.InterfaceError)
"""Connection lost, server shutting down, cannot connect."""
UNAVAILABLE_CLASSES = ("08", "25", "57")
"""SQLSTATE classes meaning the server or the session cannot be used now (see the module)."""
BACKOFF_FIRST = 0.005
"""Seconds: the first retry's pause is at most this long (`backoff`)."""
BACKOFF_MOST = 0.25
"""Seconds: no retry waits longer than this."""


def unavailable(exc: psycopg.Error) -> bool:
    """True when `exc` says the connection or the server is out of use (see the module):
    try again elsewhere, later."""
    if isinstance(exc, _BUSY + _NO_RIGHTS):
        return False
    state = exc.sqlstate or ""
    return isinstance(exc, _LOST) or state[:2] in UNAVAILABLE_CLASSES


def backoff(attempt: int, remaining: float, rand: Callable[[], float] = random.random
            ) -> float:
    """The pause before retry `attempt` (0, 1, ...): "full jitter", uniform below
    ``BACKOFF_FIRST * 2**attempt`` capped at `BACKOFF_MOST`, never past the deadline."""
    most = min(BACKOFF_MOST, BACKOFF_FIRST * 2.0 ** attempt)
    return max(0.0, min(remaining, rand() * most))


class _SteadyAttempt(AttemptWithBackoff):
    """The pool's reconnection attempts once a second (±10 %), not doubling: after an
    outage of any length the pool is whole again about a second after the server is."""

    DELAY_BACKOFF = 1.0


class SteadyPool(ConnectionPool[Any]):
    """psycopg's pool, reconnecting at a steady pace (`_SteadyAttempt`): its own backoff
    doubles from 1 s, so a 30 s outage could leave it waiting 30 s more."""

    def _add_connection(self, attempt: AttemptWithBackoff | None,
                        growing: bool = False) -> None:
        super()._add_connection(
            attempt or _SteadyAttempt(timeout=self.reconnect_timeout), growing)


def reason(exc: BaseException) -> str:
    """One line saying why psycopg failed (without the password, which it never quotes)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.removeprefix("connection failed: ")


class Database(Threaded):
    """Runs transactions on a PostgreSQL server (a `bot.storage.interface.Engine`). Open
    with `Database.open`."""

    kind = "postgres"

    def __init__(self, path: str, pool: ConnectionPool[Any], write_timeout: float,
                 readers: int, writers: int) -> None:
        """Use `Database.open`."""
        super().__init__(path)
        self.write_timeout = write_timeout
        self._pool = pool
        self._write_pool = ThreadPoolExecutor(writers, thread_name_prefix="tractor-pg-write")
        self._read_pool = ThreadPoolExecutor(max(1, readers),
                                             thread_name_prefix="tractor-pg-read")

    @classmethod
    async def open(cls, url: str, *, clock: Callable[[], float],
                   write_timeout: float = DEFAULT_WRITE_TIMEOUT,
                   readers: int = DEFAULT_READERS, writers: int = DEFAULT_WRITERS) -> Database:
        """Connect, check, migrate (see `bot.storage.postgres.migrate`), prove writable,
        then open the pool. `DatabaseUnavailable` when the server cannot be reached or
        refuses the login, `DatabaseNotWritable` without the rights to write,
        `SchemaTooNew`/`DatabaseCorrupt` for a database that is not ours to use."""
        if write_timeout <= 0 or readers < 0 or writers < 1:
            raise ValueError("write_timeout must be > 0, readers >= 0 and writers >= 1")
        path = display(url)
        await asyncio.to_thread(cls._prepare, url, path, clock)
        size = max(1, readers) + writers
        pool: ConnectionPool[Any] = SteadyPool(
            url, min_size=size, max_size=size, open=False, configure=configure,
            kwargs={"connect_timeout": CONNECT_TIMEOUT}, name="tractor",
            reconnect_timeout=3600.0)
        try:
            await asyncio.to_thread(pool.open, True, CONNECT_TIMEOUT * 2)
        except PoolTimeout as exc:
            await asyncio.to_thread(pool.close)
            raise DatabaseUnavailable(path, "the connection pool could not connect") from exc
        return cls(path, pool, write_timeout, readers, writers)

    @staticmethod
    def _prepare(url: str, path: str, clock: Callable[[], float]) -> None:
        try:
            conn = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT, autocommit=True)
        except psycopg.Error as exc:
            raise DatabaseUnavailable(path, reason(exc)) from exc
        try:
            with conn:
                migrate(conn, path, clock)
                prove_writable(conn)
        except _NO_RIGHTS as exc:
            raise DatabaseNotWritable(path, reason(exc), hint=(
                "grant the bot's user the rights to create and write tables in its"
                " database")) from exc
        except psycopg.errors.LockNotAvailable as exc:
            raise StorageBusy(path, 60) from exc
        except psycopg.Error as exc:
            raise DatabaseUnavailable(path, reason(exc)) from exc

    async def read(self, job: Job[T]) -> T:
        """Run ``job`` in one read-only transaction on one snapshot."""
        deadline = time.perf_counter() + READ_TIMEOUT
        return await self._submit(self._read_pool, self._run, job, None, deadline, False)

    async def write(self, job: Job[T], *, verify: Job[T | None] | None = None) -> T:
        """Run ``job`` in one SERIALIZABLE transaction (see the module): committed if it
        returns, rolled back if it raises, re-run after a serialisation failure;
        `StorageBusy` if it could not finish within ``write_timeout`` seconds from now.
        ``verify``: after a lost COMMIT, returns the result if the write happened, None if
        not."""
        # perf_counter, not monotonic: simulated clocks (SimCord) patch time.monotonic
        deadline = time.perf_counter() + self.write_timeout
        return await self._submit(self._write_pool, self._run, job, verify, deadline, True)

    def listener(self, channel: str, wake: Wake) -> Listener:
        """`channel`'s notifications handed to the running loop (`Listener`; not started),
        on a connection of its own."""
        conninfo = self._pool.conninfo
        assert isinstance(conninfo, str)  # `open` gives the pool its address
        return Listener(conninfo, channel, asyncio.get_running_loop(), wake)

    async def close(self) -> None:
        """Finish queued transactions, then close the pool. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await asyncio.to_thread(self._shutdown)

    def _shutdown(self) -> None:
        self._read_pool.shutdown(wait=True)
        self._write_pool.shutdown(wait=True)
        self._pool.close()

    # ---- on the database threads --------------------------------------------------------

    def _run(self, job: Job[T], verify: Job[T | None] | None, deadline: float,
             write: bool) -> T:
        """Run ``job`` until it commits, raises, or runs out of time (see the module)."""
        lost: BaseException | None = None
        unknown = False
        attempt = 0
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                if unknown:
                    raise DatabaseUnavailable(self.path, "the connection was lost while"
                                              " committing; the change may not be saved")
                if lost is not None:
                    raise DatabaseUnavailable(self.path, reason(lost)) from lost
                raise StorageBusy(self.path, self.write_timeout)
            try:
                conn = self._pool.getconn(timeout=remaining)
            except PoolTimeout as exc:  # a write waiting for a connection is busy
                lost = lost or (None if write else exc)
                continue
            try:
                if unknown and verify is not None:
                    found = self._once(conn, verify, _BEGIN_READ)
                    if found is not None:
                        return found
                    unknown = False
                return self._once(conn, job, self._begin_write(remaining) if write
                                  else _BEGIN_READ)
            except _RETRY:
                time.sleep(backoff(attempt, deadline - time.perf_counter()))
                attempt += 1
                continue
            except _BUSY as exc:
                raise StorageBusy(self.path, self.write_timeout) from exc
            except _NO_RIGHTS as exc:
                raise DatabaseNotWritable(self.path, reason(exc), hint=(
                    "grant the bot's user the rights to write its tables")) from exc
            except _Unknown as exc:
                if verify is None:
                    raise DatabaseUnavailable(self.path, "the connection was lost while"
                                              " committing; the change may not be saved"
                                              ) from exc.__cause__
                unknown = True
                lost = exc.__cause__
            except psycopg.Error as exc:
                if not unavailable(exc):
                    raise
                lost = exc
                time.sleep(min(0.05, max(0.0, deadline - time.perf_counter())))
            finally:
                self._pool.putconn(conn)

    @staticmethod
    def _begin_write(remaining: float) -> str:
        ms = max(1, int(remaining * 1000))
        ms = ms if ms < 100 else ms - ms % 100  # few distinct texts
        return (f"BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL lock_timeout = {ms};"
                f" SET LOCAL statement_timeout = {ms}")

    @staticmethod
    def _once(conn: psycopg.Connection[Any], job: Job[T], begin: str) -> T:
        """One transaction. A failure to COMMIT because the connection went away is
        `_Unknown`; any other failure rolls back (if the connection still can)."""
        conn.execute(begin)
        try:
            result = job(PgConnection(conn))
        except BaseException:
            if not conn.broken and conn.info.transaction_status != TransactionStatus.IDLE:
                with contextlib.suppress(psycopg.Error):
                    conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except psycopg.Error as exc:
            if conn.broken or conn.closed:
                raise _Unknown from exc
            raise
        return result


class _Unknown(StorageError):
    """The connection was lost during COMMIT (the outcome is unknown)."""
