"""Interactions received by one cluster for a table another cluster drives.

Discord delivers every DM interaction (the hand panels' clicks) to shard 0, whatever
server the table is in. The receiving process acknowledges the click at once (Discord's
3 seconds), then `Inbox.forward` queues its payload for the owner of the table's shard
(idempotent by interaction id: a second delivery queues nothing) and waits for the outcome;
the owner's `Inbox.serve` loop claims what is queued for the shards it holds, applies each
through its own handler (the table service, under the table's lock, with the fenced
save) and marks it done with an outcome; the answer goes to the player through the
interaction's token, which any process may use for 15 minutes. An item whose claimer died
before finishing is claimed again after `retry_after`; the handler must itself be
idempotent by interaction id (`Inbox.applied` remembers what this process applied, the
table's step check refuses a click applied by a former owner).

The owner wakes when an item is queued: on PostgreSQL the queuing transaction notifies
(``NOTIFY`` at its commit) and the owner's `Listening` (a thread of its own, never the
loop) wakes its serve loop for the shards it holds; it then polls only every `fallback`
seconds, in case a notification was lost, and at once after each reconnection. While no
notification can arrive (SQLite, or the listening connection is down) it polls every
`poll` seconds.

No owner claimed it within `wait` (the shard's owner is down, or taking over): the item is
*withdrawn* (closed with `TRY_AGAIN`, atomically against a claim) and the player is told to
try again; it is never applied later, so what the player was told stays true. An item an
owner has claimed is its to answer (`CLAIMED`: the receiver says nothing more).

Discord-free; the store does the SQL (`bot.storage.cluster.ClusterStore`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from bot.runtime.logging import log
from bot.storage import StorageError
from bot.storage.cluster import InboxItem, Listening

__all__ = ["CLAIMED", "FAILED", "FORWARD_WAIT", "TRY_AGAIN", "Inbox", "InboxStore"]

TRY_AGAIN = "try_again"
"""The outcome `forward` returns when no owner took the item in time (it is withdrawn)."""
CLAIMED = "claimed"
"""`forward`'s result when an owner claimed the item but has not finished within the wait:
the owner answers the player itself."""
FAILED = "failed"
"""The outcome of an item whose handler raised (a bug, logged by the owner)."""
FORWARD_WAIT = 5.0
"""Seconds a receiver waits for an owner to take a forwarded click (the click is deferred
already; the token lives 15 minutes)."""
CLAIM_LIMIT = 50
"""Items claimed at once (a full batch is followed by another claim at once)."""
FALLBACK = 1.0
"""Seconds between an owner's polls while notifications arrive (one may be lost)."""
APPLIED_KEPT = 10_000
"""Applied interactions this process remembers (a re-claim comes within minutes)."""

Handler = Callable[[InboxItem], Awaitable[str]]


class InboxStore(Protocol):
    async def put(self, interaction_id: int, shard: int, table_id: int,
                  payload: Mapping[str, Any]) -> bool: ...

    async def claim(self, owner: str, shards: Mapping[int, int], *, limit: int = 50,
                    retry_after: float = 30.0) -> list[InboxItem]: ...

    async def done(self, interaction_id: int, outcome: str) -> None: ...

    async def withdraw(self, interaction_id: int, outcome: str) -> bool: ...

    async def outcome(self, interaction_id: int) -> str | None: ...

    def listen(self, wake: Callable[[str | None], None]) -> Listening | None: ...


class Inbox:
    """Forwarding (any process) and serving (the owner) of queued interactions."""

    def __init__(self, store: InboxStore, *, poll: float = 0.05, fallback: float = FALLBACK,
                 retry_after: float = 30.0, notified: bool = True) -> None:
        self.store = store
        self.poll = poll
        self.fallback = fallback
        self.notified = notified
        """Whether the owner listens for notifications where the store sends them (False:
        it polls, as on SQLite; a benchmark's "before")."""
        self.listener: Listening | None = None
        """The serve loop's notifications, while it runs (None: polling only)."""
        self.retry_after = retry_after
        self.applied: OrderedDict[int, str] = OrderedDict()
        """Interaction id → outcome, for what this process applied (a re-claimed item is
        answered, not applied twice); the latest `APPLIED_KEPT`."""

    async def forward(self, interaction_id: int, shard: int, table_id: int,
                      payload: Mapping[str, Any], *, wait: float = FORWARD_WAIT) -> str:
        """Queue the interaction for its shard's owner and wait for its outcome (at most
        `wait` seconds); then `TRY_AGAIN` if no owner had claimed it (withdrawn: never
        applied), `CLAIMED` if one had (it answers)."""
        await self.store.put(interaction_id, shard, table_id, payload)
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        while True:
            outcome = await self.store.outcome(interaction_id)
            if outcome is not None:
                return outcome
            if loop.time() >= end:
                if await self.store.withdraw(interaction_id, TRY_AGAIN):
                    return TRY_AGAIN
                return await self.store.outcome(interaction_id) or CLAIMED
            await asyncio.sleep(self.poll)

    async def serve_once(self, owner: str, shards: Mapping[int, int], handler: Handler) -> int:
        """Claim and apply what is queued for the shards held; returns how many."""
        items = await self.store.claim(owner, shards, limit=CLAIM_LIMIT,
                                       retry_after=self.retry_after)
        for item in items:
            outcome = self.applied.get(item.interaction_id)
            if outcome is None:
                try:
                    outcome = await handler(item)
                except StorageError:
                    outcome = TRY_AGAIN
                except Exception:
                    log.exception("table=%s forwarded interaction %s failed", item.table_id,
                                  item.interaction_id)
                    outcome = FAILED
                self.applied[item.interaction_id] = outcome
                while len(self.applied) > APPLIED_KEPT:
                    self.applied.popitem(last=False)
            await self.store.done(item.interaction_id, outcome)
        return len(items)

    async def serve(self, owner: str, shards: Callable[[], Mapping[int, int]],
                    handler: Handler) -> None:
        """The owner's loop (until cancelled): claim and apply, then wait for a notification
        or the next poll (polling alone: a plain sleep, which a simulated clock
        recognizes)."""
        woken = asyncio.Event()

        def wake(shard: str | None) -> None:
            if shard is None or not shard.isdigit() or int(shard) in shards():
                woken.set()

        self.listener = self.store.listen(wake) if self.notified else None
        try:
            while True:
                woken.clear()
                held = shards()
                if held:
                    with contextlib.suppress(StorageError):
                        if await self.serve_once(owner, held, handler) >= CLAIM_LIMIT:
                            continue  # more may be queued (what came meanwhile woke us)
                await self._idle(woken)
        finally:
            listener, self.listener = self.listener, None
            if listener is not None:
                await asyncio.shield(listener.close())

    async def _idle(self, woken: asyncio.Event) -> None:
        """Until a notification for a shard held, or the next poll. `asyncio.timeout`, not
        `asyncio.wait_for`: Python 3.11's wait_for swallows a cancellation that comes as
        the wait ends (a notification, and the process stopping), and the serve loop went
        on forever: a stopping cluster process never exited."""
        listener = self.listener
        if listener is None:
            await asyncio.sleep(self.poll)
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.fallback if listener.listening else self.poll):
                await woken.wait()
