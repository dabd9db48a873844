"""Which process drives which table: one owner per gateway shard, by lease.

A table belongs to its server's shard (``(guild_id >> 22) % shard_count``). A lone process
owns everything (`SoleOwner`). A cluster (one of several processes) holds a lease per shard
in the database (`ShardLeases`): taken at start (waiting for a former owner's to run out),
renewed every third of its time, released on a graceful stop. Any error renewing counts as
a failed renewal (never a silently dead renewer). Renewals failing for two thirds of the
lease (the database out of reach) *suspend* the process: it owns nothing (every save
refused), and keeps trying to take its shards again. A renewal refused (the lease ran out:
the process was paused, or the database was down past it) also tries to take them again:
if no other process took any of them, the process holds them again at new epochs and
``on_regained`` restores their tables (a database outage costs no restart); else it is
*fenced*: it owns nothing any more, its saves are refused inside their own transaction
(the store checks the epoch, `bot.storage.cluster.check_fence`), and the ``on_fenced``
callback stops its timers and computer seats and makes it exit.

Discord-free; the store does the SQL (`LeaseStore`, `bot.storage.cluster.ClusterStore`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Protocol

from bot.runtime.config import shard_of
from bot.runtime.logging import log
from bot.storage import StorageError
from bot.storage.cluster import Fence

__all__ = ["LeaseStore", "Ownership", "ShardLeases", "SoleOwner", "owner_id"]


class Ownership(Protocol):
    """What the rest of the bot asks: does this process drive the server's tables?"""

    @property
    def fenced(self) -> bool: ...

    def owns(self, guild_id: int) -> bool: ...

    def shard(self, guild_id: int) -> int: ...


class SoleOwner:
    """One process, the whole bot: it owns every table (SQLite, or no shard settings)."""

    fenced = False

    def owns(self, guild_id: int) -> bool:
        return True

    def shard(self, guild_id: int) -> int:
        return 0


class LeaseStore(Protocol):
    async def acquire(self, shard: int, owner: str, ttl: float) -> int | None: ...

    async def renew(self, owner: str, epochs: Mapping[int, int], ttl: float) -> bool: ...

    async def release(self, owner: str, epochs: Mapping[int, int]) -> None: ...

    @property
    def kind(self) -> str:
        """The database's backend (its clock checks the fence)."""
        ...


def owner_id(cluster: str) -> str:
    """A lease owner's name: the cluster's, made unique to this start (a restarted process
    never inherits its predecessor's epoch)."""
    return f"{cluster or 'bot'}/{os.getpid()}-{secrets.token_hex(3)}"


class ShardLeases:
    """This process's shards, held by lease (see the module's text)."""

    def __init__(self, store: LeaseStore, *, owner: str, shard_count: int,
                 shard_ids: Iterable[int], ttl: float = 15.0,
                 on_fenced: Callable[[str], Awaitable[None] | None] | None = None,
                 on_regained: Callable[[], Awaitable[object] | None] | None = None,
                 clock: Callable[[], float] | None = None, fence: Fence | None = None,
                 monotonic: Callable[[], float] = time.perf_counter,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.store = store
        self.owner = owner
        self.shard_count = shard_count
        self.shard_ids = tuple(shard_ids)
        self.ttl = ttl
        self.fence = Fence(owner, shard_count, clock=clock) if fence is None else fence
        """Shared with the store (given to both at construction by the composition root):
        the epochs every save is checked against."""
        self._on_fenced = on_fenced
        self._on_regained = on_regained
        self.suspended = False
        """Renewals failed (or were refused) and the shards are not held again yet."""
        self._monotonic = monotonic
        self._sleep = sleep
        self._renewer: asyncio.Task[None] | None = None
        self.fenced = False
        self.fenced_reason: str | None = None
        self.acquired_at: dict[int, float] = {}
        """Monotonic time each shard was taken (take-over measurements)."""

    @property
    def epochs(self) -> dict[int, int]:
        return self.fence.epochs

    def shard(self, guild_id: int) -> int:
        return shard_of(guild_id, self.shard_count)

    def owns(self, guild_id: int) -> bool:
        return not self.fenced and self.shard(guild_id) in self.fence.epochs

    async def acquire(self, *, wait: float | None = None, poll: float | None = None) -> bool:
        """Take every shard of this process, polling those another holds until its lease
        runs out (at most `wait` seconds; None: as long as it takes). True when all are
        held."""
        poll = self.ttl / 10 if poll is None else poll
        start = self._monotonic()
        told = False
        while True:
            for shard in self.shard_ids:
                if shard in self.fence.epochs:
                    continue
                try:
                    epoch = await self.store.acquire(shard, self.owner, self.ttl)
                except StorageError as error:  # e.g. a take-over waiting for a row lock
                    log.warning("shard %d not taken yet: %s", shard, error)
                    epoch = None
                if epoch is not None:
                    self.fence.epochs[shard] = epoch
                    self.acquired_at[shard] = self._monotonic()
                    log.info("shard %d held (epoch %d)", shard, epoch)
            if len(self.fence.epochs) == len(self.shard_ids):
                return True
            if wait is not None and self._monotonic() - start >= wait:
                return False
            if not told:
                told = True
                log.info("waiting for shard(s) %s: held by another process until its lease "
                         "runs out", ", ".join(str(s) for s in self.shard_ids
                                               if s not in self.fence.epochs))
            await asyncio.sleep(poll)

    def start(self) -> None:
        """Start renewing (every third of the lease)."""
        if self._renewer is None:
            self._renewer = asyncio.get_running_loop().create_task(self._renew_loop())

    async def renew_once(self) -> bool:
        """One renewal; a refusal fences the process. False when fenced."""
        if self.fenced:
            return False
        if not await self.store.renew(self.owner, dict(self.fence.epochs), self.ttl):
            await self.fence_now("a shard lease was lost (expired or taken over)")
            return False
        return True

    async def _renew_loop(self) -> None:
        last = self._monotonic()
        pause = self.ttl / 3
        while not self.fenced:
            await self._sleep(pause)
            pause = self.ttl / 3
            try:
                if self.suspended or not await self.store.renew(
                        self.owner, dict(self.fence.epochs), self.ttl):
                    await self._take_again()
                last = self._monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # any failure is a failed renewal
                pause = self.ttl / 10
                if not self.suspended and self._monotonic() - last >= self.ttl * 2 / 3:
                    self._suspend(f"the leases could not be renewed: {error}")
                elif not self.suspended:
                    log.warning("lease renewal failed, trying again: %s", error)

    def _suspend(self, reason: str) -> None:
        """Own nothing (every save refused) until the shards are held again."""
        self.suspended = True
        self.fence.epochs.clear()
        log.error("suspended: %s; driving no table until the shards are held again", reason)

    async def _take_again(self) -> None:
        """After renewals failed or were refused: hold every shard again if no other process
        took one (new epochs; ``on_regained`` restores their tables), else fence. A storage
        error leaves the process suspended (tried again by the loop)."""
        if not self.suspended:
            self._suspend("a shard lease ran out")
        epochs: dict[int, int] = {}
        for shard in self.shard_ids:
            epoch = await self.store.acquire(shard, self.owner, self.ttl)
            if epoch is None:
                for held, at in epochs.items():  # give back what was taken
                    with contextlib.suppress(StorageError):
                        await self.store.release(self.owner, {held: at})
                await self.fence_now(f"shard {shard} was taken over by another process")
                return
            epochs[shard] = epoch
        self.fence.epochs.update(epochs)
        self.suspended = False
        log.warning("shards %s held again (epochs %s)", ", ".join(map(str, epochs)),
                    ", ".join(map(str, epochs.values())))
        if self._on_regained is not None:
            try:
                result = self._on_regained()
                if result is not None:
                    await result
            except Exception:  # the shards are held: a failed restore is not a lost lease
                log.exception("restoring the tables of the shards held again failed")

    async def fence_now(self, reason: str) -> None:
        """Own nothing from now on (every save refused) and tell the process to stop."""
        if self.fenced:
            return
        self.fenced = True
        self.fenced_reason = reason
        self.fence.epochs.clear()
        log.error("fenced: %s; this process drives no table any more", reason)
        if self._on_fenced is not None:
            result = self._on_fenced(reason)
            if result is not None:
                await result

    async def release(self) -> None:
        """A graceful stop: stop renewing and give the leases up at once."""
        renewer, self._renewer = self._renewer, None
        if renewer is not None:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
        held = dict(self.fence.epochs)
        self.fence.epochs.clear()
        if held and not self.fenced:
            with contextlib.suppress(StorageError):
                await self.store.release(self.owner, held)
                log.info("shard leases released: %s", ", ".join(map(str, sorted(held))))
