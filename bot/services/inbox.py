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
from bot.storage.cluster import InboxItem

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


class Inbox:
    """Forwarding (any process) and serving (the owner) of queued interactions."""

    def __init__(self, store: InboxStore, *, poll: float = 0.05,
                 retry_after: float = 30.0) -> None:
        self.store = store
        self.poll = poll
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
        items = await self.store.claim(owner, shards, retry_after=self.retry_after)
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
        """The owner's loop (until cancelled): claim and apply, then sleep until the next
        poll (a plain sleep: it is what a simulated clock recognizes)."""
        while True:
            held = shards()
            if held:
                with contextlib.suppress(StorageError):
                    if await self.serve_once(owner, held, handler):
                        continue
            await asyncio.sleep(self.poll)
