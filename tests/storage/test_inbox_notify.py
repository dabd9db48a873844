"""The inbox wakes its owner by PostgreSQL ``NOTIFY`` (issue 36): the queuing transaction
notifies at its commit, the owner's listening thread hands the wake to its loop, and a lost
listening connection is opened again (the owner looks at its inbox at once then).

The owner here polls once an hour: only a notification (or a reconnection) makes it claim.
Waits are bounded by events, never by the machine's speed (`GENEROUS` only stops a broken
build from hanging)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Any

import psycopg

from bot.services.inbox import Inbox
from bot.storage import Store
from bot.storage.cluster import ClusterStore, InboxItem
from bot.storage.postgres.listen import Listener

HOUR = 3600.0
GENEROUS = 60.0


class Counting(ClusterStore):
    """Counts the owner's claims, and says when one is made."""

    claims = 0
    claimed: asyncio.Event | None = None

    async def claim(self, owner: str, shards: Mapping[int, int], *, limit: int = 50,
                    retry_after: float = 30.0) -> list[InboxItem]:
        items = await super().claim(owner, shards, limit=limit, retry_after=retry_after)
        self.claims += 1
        if self.claimed is not None:
            self.claimed.set()
        return items


async def until(condition: Any) -> None:
    async with asyncio.timeout(GENEROUS):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_queued_click_wakes_the_owner_by_notify_and_after_a_reconnection(
        pg_url: str) -> None:
    async with await Store.open(pg_url) as here, await Store.open(pg_url) as there:
        owning = Counting(there)
        assert await owning.acquire(1, "b", HOUR) == 1
        receiving = Inbox(ClusterStore(here), poll=0.01)
        serving = Inbox(owning, poll=HOUR, fallback=HOUR)
        applied: list[int] = []

        async def handler(item: InboxItem) -> str:
            applied.append(item.interaction_id)
            return f"played {item.payload['card']}"

        server = asyncio.create_task(serving.serve("b", lambda: {1: 1}, handler))
        try:
            # Started: one claim, then one more when the listener connected.
            await until(lambda: serving.listener is not None and serving.listener.listening
                        and owning.claims >= 2)
            claims = owning.claims
            assert await receiving.forward(21, 1, 7, {"card": "AS"}, wait=GENEROUS) \
                == "played AS"
            assert applied == [21] and owning.claims > claims

            # A notification for a shard the owner does not hold does not wake it ...
            owning.claimed = asyncio.Event()
            claims = owning.claims
            await receiving.store.put(22, 0, 7, {"card": "KS"})
            # ... as the next one, for its shard, shows: exactly one claim between them.
            assert await receiving.forward(23, 1, 7, {"card": "QS"}, wait=GENEROUS) \
                == "played QS"
            assert owning.claims == claims + 1 and applied == [21, 23]

            # The listening connection dies (as in a server restart): it is opened again,
            # the owner looks at its inbox at once, and notifications arrive again.
            listener = serving.listener
            assert isinstance(listener, Listener) and listener.pid is not None
            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (listener.pid,))
            await until(lambda: listener.connects == 2 and listener.listening)
            assert await receiving.forward(24, 1, 7, {"card": "JS"}, wait=GENEROUS) \
                == "played JS"
            assert applied == [21, 23, 24]
        finally:
            server.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await server
        assert serving.listener is None  # closed with its loop


async def test_sqlite_has_no_notifications_its_owner_polls(tmp_path: Any) -> None:
    async with await Store.open(tmp_path / "t.sqlite3") as store:
        assert ClusterStore(store).listen(lambda shard: None) is None
