"""What several processes (clusters) of one bot share in its database: shard leases with
fencing epochs, the inbox of interactions received by one process for a table another
drives, and the hash of the last synced command tree.

A lease gives one process (``owner``, its cluster name and a per-start nonce) one gateway
shard until ``expires_at``, measured on the database's clock (never a process's: two
machines disagree, a paused process has no clock at all). Every take-over of a shard
raises its ``epoch``; the owner's table saves carry the epochs it holds (`Fence`) and
`check_fence` refuses, inside the save's own transaction, a save whose table's shard is
no longer held at that epoch (`StaleOwner`: nothing written). ``lease_log`` keeps every
take-over and release, so a soak can check that no shard ever had two owners at once.

The functions take a connection inside a transaction the caller opened; `ClusterStore`
runs them on a `bot.storage.Store`'s database, SQLite (one machine: a soak, a test) or
PostgreSQL (several machines). The tables are the schema's version 6 (both dialects).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .errors import StaleVersion
from .interface import Connection, Engine

__all__ = ["INBOX_CHANNEL", "ClusterStore", "Fence", "InboxItem", "Lease", "Listening",
           "StaleOwner", "check_fence", "shard_sql"]

INBOX_CHANNEL = "tractor_inbox"
"""The PostgreSQL notification channel of the inbox: `ClusterStore.put` notifies it (the
shard as payload) in the queuing transaction, so at its commit; owners LISTEN
(`ClusterStore.listen`)."""

CLOCK_SQL = {
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
    "postgres": "extract(epoch from clock_timestamp())::float8",
}
"""Each backend's clock in epoch seconds (`bot.storage.interface.Engine.kind`)."""
HOLD_SQL = {
    "sqlite": "",
    "postgres": " FOR SHARE",
}
"""What `check_fence` adds to hold the lease row until the save commits: PostgreSQL's
``FOR SHARE`` (a take-over's UPDATE of the row waits for the save to commit or roll back;
a session paused before COMMIT is ended by ``idle_in_transaction_session_timeout``, its
save rolled back). Under SERIALIZABLE a share lock changes no row, so the take-over's
UPDATE proceeds once the save commits; a save that finds the row changed since its snapshot
(a renewal committed meanwhile) fails to serialise and is re-run. SQLite needs nothing: a
write holds the file's one write lock from its ``BEGIN IMMEDIATE`` to its COMMIT, so no
take-over commits in between."""


class StaleOwner(StaleVersion):
    """A save by a process that no longer holds the table's shard at its epoch (a paused or
    partitioned former owner): refused, nothing written."""

    def __init__(self, table_id: int, shard: int, epoch: int | None) -> None:
        self.shard = shard
        self.held_epoch = epoch
        StaleVersion.__init__(self, table_id, 0, 0, "open")
        self.args = (f"table {table_id}: shard {shard} is not held at epoch {epoch} "
                     "(another process took it over)",)


@dataclass(slots=True)
class Fence:
    """The leases a process holds: what every save it makes is checked against.
    ``epochs`` is shared with the lease service, which adds and drops shards."""

    owner: str
    shard_count: int
    epochs: dict[int, int] = field(default_factory=dict)
    clock: Callable[[], float] | None = None
    """None: the database's clock (production); tests give the leases' simulated one."""


@dataclass(frozen=True, slots=True)
class Lease:
    shard: int
    owner: str | None
    epoch: int
    expires_at: float


@dataclass(frozen=True, slots=True)
class InboxItem:
    interaction_id: int
    shard: int
    table_id: int
    payload: dict[str, Any]
    created_at: float


def shard_sql(guild_column: str, count_param: str = "?") -> str:
    """The SQL for a guild's shard: ``(guild_id >> 22) % shard_count``."""
    return f"(({guild_column} >> 22) % {count_param})"


def check_fence(db: Connection, fence: Fence, kind: str, table_id: int | None,
                guild_id: int | None = None) -> None:
    """Raise `StaleOwner` unless the shard of the table (or of `guild_id`, for a new table)
    is held by ``fence.owner`` at the epoch it believes, and the lease has not run out.
    Run inside the save's transaction, holding the lease row until it commits
    (`HOLD_SQL`), so a take-over commits either before (the save is refused) or after it
    (the save is the last of the old owner): the fence holds at COMMIT, not only at the
    check."""
    if guild_id is None:
        row = db.execute("SELECT guild_id FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return  # the save itself reports the missing table
        guild_id = int(row[0])
    shard = (guild_id >> 22) % fence.shard_count
    epoch = fence.epochs.get(shard)
    clock = CLOCK_SQL[kind] if fence.clock is None else "?"
    params: tuple[Any, ...] = (shard,) if fence.clock is None else (fence.clock(), shard)
    lease = db.execute(f"SELECT owner, epoch, expires_at > {clock} FROM shard_leases"
                       f" WHERE shard = ?{HOLD_SQL[kind]}", params).fetchone()
    if (epoch is None or lease is None or lease[0] != fence.owner or int(lease[1]) != epoch
            or not lease[2]):
        raise StaleOwner(table_id or 0, shard, epoch)


class Listening(Protocol):
    """A started `bot.storage.postgres.listen.Listener`, as its users see it."""

    @property
    def listening(self) -> bool: ...

    async def close(self) -> None: ...


@runtime_checkable
class _Notifying(Protocol):
    """A database that delivers notifications (PostgreSQL's `Database`)."""

    def listener(self, channel: str, wake: Callable[[str | None], None]) -> Any: ...


class _OnDatabase(Protocol):
    """A `bot.storage.Store` (not imported: the store imports this module)."""

    _db: Engine


class ClusterStore:
    """Leases, inbox and command hash on a `Store`'s database (each call one transaction).

    `clock`: None uses the database's clock (production); tests pass a simulated one."""

    def __init__(self, store: _OnDatabase, *, clock: Callable[[], float] | None = None) -> None:
        self.store = store
        self._db = store._db  # the storage package's own database
        self._clock = clock

    @property
    def kind(self) -> str:
        """The database's backend (``"sqlite"`` or ``"postgres"``)."""
        return self._db.kind

    def _now(self) -> tuple[str, tuple[float, ...]]:
        if self._clock is None:
            return CLOCK_SQL[self._db.kind], ()
        return "?", (self._clock(),)

    async def _write(self, job: Callable[[Connection], Any]) -> Any:
        return await self._db.write(job)

    async def now(self) -> float:
        """The database's clock (epoch seconds)."""
        clock, args = self._now()
        return float(await self._write(
            lambda db: db.execute(f"SELECT {clock}", args).fetchone()[0]))

    # ---- leases ----------------------------------------------------------------------

    async def acquire(self, shard: int, owner: str, ttl: float) -> int | None:
        """Take `shard` for `owner` if it is free, expired or already `owner`'s; returns the
        epoch held (raised by one on a take-over), or None while another holds it."""
        clock, args = self._now()

        def job(db: Connection) -> int | None:
            now = float(db.execute(f"SELECT {clock}", args).fetchone()[0])
            row = db.execute("SELECT owner, epoch, expires_at FROM shard_leases"
                             " WHERE shard = ?", (shard,)).fetchone()
            if row is None:
                epoch = 1
                db.execute("INSERT INTO shard_leases (shard, owner, epoch, expires_at)"
                           " VALUES (?, ?, ?, ?)", (shard, owner, epoch, now + ttl))
            elif row[0] == owner and float(row[2]) > now:
                epoch = int(row[1])
                db.execute("UPDATE shard_leases SET expires_at = ? WHERE shard = ?",
                           (now + ttl, shard))
                return epoch
            elif row[0] is None or float(row[2]) <= now:
                epoch = int(row[1]) + 1
                db.execute("UPDATE shard_leases SET owner = ?, epoch = ?, expires_at = ?"
                           " WHERE shard = ?", (owner, epoch, now + ttl, shard))
            else:
                return None
            db.execute("INSERT INTO lease_log (shard, owner, epoch, event, at)"
                       " VALUES (?, ?, ?, 'acquire', ?)", (shard, owner, epoch, now))
            return epoch

        result: int | None = await self._write(job)
        return result

    async def renew(self, owner: str, epochs: Mapping[int, int], ttl: float) -> bool:
        """Extend every lease `owner` holds at these epochs, all or none; False when one was
        lost (expired, or taken over): the process must fence itself."""
        clock, args = self._now()
        held = dict(epochs)

        def job(db: Connection) -> bool:
            now = float(db.execute(f"SELECT {clock}", args).fetchone()[0])
            for shard, epoch in held.items():
                changed = db.execute(
                    "UPDATE shard_leases SET expires_at = ? WHERE shard = ? AND owner = ?"
                    " AND epoch = ? AND expires_at > ?",
                    (now + ttl, shard, owner, epoch, now)).rowcount
                if changed != 1:
                    raise _Lost
            return True

        try:
            return bool(await self._write(job))
        except _Lost:
            return False

    async def release(self, owner: str, epochs: Mapping[int, int]) -> None:
        """Give the leases up at once (a graceful stop): the next process takes them without
        waiting for them to run out."""
        clock, args = self._now()
        held = dict(epochs)

        def job(db: Connection) -> None:
            now = float(db.execute(f"SELECT {clock}", args).fetchone()[0])
            for shard, epoch in held.items():
                if db.execute("UPDATE shard_leases SET owner = NULL, expires_at = 0"
                              " WHERE shard = ? AND owner = ? AND epoch = ?",
                              (shard, owner, epoch)).rowcount:
                    db.execute("INSERT INTO lease_log (shard, owner, epoch, event, at)"
                               " VALUES (?, ?, ?, 'release', ?)", (shard, owner, epoch, now))

        await self._write(job)

    async def leases(self) -> list[Lease]:
        def job(db: Connection) -> list[Lease]:
            rows = db.execute("SELECT shard, owner, epoch, expires_at FROM shard_leases"
                              " ORDER BY shard").fetchall()
            return [Lease(int(r[0]), r[1], int(r[2]), float(r[3])) for r in rows]

        result: list[Lease] = await self._write(job)
        return result

    async def lease_log(self) -> list[tuple[int, str, int, str, float]]:
        """Every acquire and release: (shard, owner, epoch, event, at), in order."""
        def job(db: Connection) -> list[tuple[int, str, int, str, float]]:
            rows = db.execute("SELECT shard, owner, epoch, event, at FROM lease_log"
                              " ORDER BY id").fetchall()
            return [(int(r[0]), str(r[1]), int(r[2]), str(r[3]), float(r[4])) for r in rows]

        result: list[tuple[int, str, int, str, float]] = await self._write(job)
        return result

    # ---- the inbox -------------------------------------------------------------------

    async def put(self, interaction_id: int, shard: int, table_id: int,
                  payload: Mapping[str, Any]) -> bool:
        """Queue an interaction for the owner of `shard`; False if it was already queued
        (Discord delivered it twice, or a retry): nothing is queued twice."""
        clock, args = self._now()
        text = json.dumps(dict(payload), separators=(",", ":"))

        def job(db: Connection) -> bool:
            now = float(db.execute(f"SELECT {clock}", args).fetchone()[0])
            queued = bool(db.execute(
                "INSERT INTO cluster_inbox (interaction_id, shard, table_id, payload,"
                " created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (interaction_id) DO NOTHING",
                (interaction_id, shard, table_id, text, now)).rowcount == 1)
            if queued:
                self._notify(db, shard)
            return queued

        return bool(await self._write(job))

    def _notify(self, db: Connection, shard: int) -> None:
        """Wake `shard`'s owner at this transaction's commit (PostgreSQL; SQLite's owners
        poll)."""
        if self._db.kind == "postgres":
            db.execute("SELECT pg_notify(?, ?)", (INBOX_CHANNEL, str(shard)))

    def listen(self, wake: Callable[[str | None], None]) -> Listening | None:
        """The inbox's notifications, started: ``wake(shard)`` on the running loop for each
        queued interaction, ``wake(None)`` after each (re)connection; None on a database
        without them (SQLite: poll)."""
        if not isinstance(self._db, _Notifying):
            return None
        listener = self._db.listener(INBOX_CHANNEL, wake)
        listener.start()
        started: Listening = listener
        return started

    async def claim(self, owner: str, shards: Mapping[int, int], *, limit: int = 50,
                    retry_after: float = 30.0) -> list[InboxItem]:
        """The queued interactions of the shards `owner` holds (at these epochs), claimed by
        it; one claimed by a process that died before finishing is claimed again after
        `retry_after` seconds."""
        clock, args = self._now()
        held = dict(shards)

        def job(db: Connection) -> list[InboxItem]:
            now = float(db.execute(f"SELECT {clock}", args).fetchone()[0])
            live = [shard for shard, epoch in held.items() if db.execute(
                "SELECT 1 FROM shard_leases WHERE shard = ? AND owner = ? AND epoch = ?"
                " AND expires_at > ?", (shard, owner, epoch, now)).fetchone()]
            if not live:
                return []
            marks = ",".join("?" * len(live))
            rows = db.execute(
                f"SELECT interaction_id, shard, table_id, payload, created_at FROM cluster_inbox"
                f" WHERE done_at IS NULL AND shard IN ({marks})"
                " AND (claimed_at IS NULL OR claimed_at < ?) ORDER BY created_at LIMIT ?",
                (*live, now - retry_after, limit)).fetchall()
            # Each row claimed only if still unclaimed and not withdrawn (`withdraw`): the
            # condition is checked again by the UPDATE, so a concurrent withdrawal wins or
            # loses as a whole on both backends.
            claimed = [row for row in rows if db.execute(
                "UPDATE cluster_inbox SET claimed_by = ?, claimed_at = ?"
                " WHERE interaction_id = ? AND done_at IS NULL"
                " AND (claimed_at IS NULL OR claimed_at < ?)",
                (owner, now, row[0], now - retry_after)).rowcount == 1]
            return [InboxItem(int(r[0]), int(r[1]), int(r[2]), json.loads(r[3]), float(r[4]))
                    for r in claimed]

        result: list[InboxItem] = await self._write(job)
        return result

    async def done(self, interaction_id: int, outcome: str) -> None:
        clock, args = self._now()
        await self._write(lambda db: db.execute(
            f"UPDATE cluster_inbox SET done_at = {clock}, outcome = ? WHERE interaction_id = ?",
            (*args, outcome, interaction_id)))

    async def withdraw(self, interaction_id: int, outcome: str) -> bool:
        """Close a queued interaction no owner has claimed yet, with `outcome` (the player is
        told to try again: it is never applied later); False when an owner has it (claimed
        or done)."""
        clock, args = self._now()
        return bool(await self._write(lambda db: db.execute(
            f"UPDATE cluster_inbox SET done_at = {clock}, outcome = ? WHERE interaction_id = ?"
            " AND done_at IS NULL AND claimed_at IS NULL",
            (*args, outcome, interaction_id)).rowcount == 1))

    async def outcome(self, interaction_id: int) -> str | None:
        """What the owner made of a queued interaction (None while it waits)."""
        def job(db: Connection) -> str | None:
            row = db.execute("SELECT outcome FROM cluster_inbox WHERE interaction_id = ?",
                             (interaction_id,)).fetchone()
            return None if row is None or row[0] is None else str(row[0])

        result: str | None = await self._write(job)
        return result

    # ---- the command tree ------------------------------------------------------------

    async def meta(self, key: str) -> str | None:
        """The value stored under `key` (None: nothing)."""
        def job(db: Connection) -> str | None:
            row = db.execute("SELECT value FROM cluster_meta WHERE key = ?", (key,)).fetchone()
            return None if row is None else str(row[0])

        result: str | None = await self._write(job)
        return result

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(lambda db: db.execute(
            "INSERT INTO cluster_meta (key, value) VALUES (?, ?) ON CONFLICT (key)"
            " DO UPDATE SET value = excluded.value", (key, value)))

    # ---- gateway logins ------------------------------------------------------------------

    async def identify_slot(self, bucket: int, spacing: float) -> float:
        """Take the identify `bucket` (Discord allows one gateway login per bucket every
        `spacing` seconds, for the whole bot, every cluster together) if it is free: 0.0;
        else the seconds until it is (nothing taken: ask again then)."""
        clock, args = self._now()
        key = f"identify:{bucket}"

        def job(db: Connection) -> float:
            now = float(db.execute(f"SELECT {clock}", args).fetchone()[0])
            row = db.execute("SELECT value FROM cluster_meta WHERE key = ?", (key,)).fetchone()
            free_at = float(row[0]) + spacing if row is not None else now
            if free_at > now:
                return free_at - now
            db.execute("INSERT INTO cluster_meta (key, value) VALUES (?, ?) ON CONFLICT (key)"
                       " DO UPDATE SET value = excluded.value", (key, repr(now)))
            return 0.0

        wait: float = await self._write(job)
        return wait


class _Lost(Exception):
    """A lease was not renewed: roll the renewal back."""
