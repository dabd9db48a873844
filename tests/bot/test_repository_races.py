"""Reads without the table's lock never roll the repository back (issue 32 item 1).

A property over interleavings: moves (under the table's lock: load, change, save), channel
lookups and cache misses (reads without the lock) and evictions start in any order, and
every read or save answers in any order (`HeldStore` holds each until released; a save has
committed before its answer is held, as a database's does). Whatever the order: no move is
refused as stale (nobody else writes), no read hands out a version older than a save
already answered, and once everything has answered the live table is the stored one.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.table import TableDoc
from bot.services.repository import TableRepository
from bot.storage import StaleVersion, StoredTable

TABLE, CHANNEL = 1, 10


class HeldStore:
    """One table in memory; every read is taken when asked and answered when released,
    every save commits when asked and answers when released."""

    def __init__(self) -> None:
        doc = TableDoc(guild_id=1, channel_id=CHANNEL, creator_id=1).to_dict()
        self.table = StoredTable(TABLE, 1, CHANNEL, 1, "playing", 1, doc, None, 0.0, 0.0)
        self.held: list[asyncio.Future[None]] = []

    async def _held(self) -> None:
        future = asyncio.get_running_loop().create_future()
        self.held.append(future)
        await future

    async def load_table(self, table_id: int) -> StoredTable | None:
        taken = self.table
        await self._held()
        return taken

    async def table_in_channel(self, channel_id: int) -> StoredTable | None:
        taken = self.table
        await self._held()
        return taken

    async def save_table(self, table_id: int, expected: int, doc: dict[str, Any],
                         **changes: Any) -> StoredTable:
        if expected != self.table.version:
            raise StaleVersion(table_id, expected, self.table.version, self.table.status)
        self.table = dataclasses.replace(self.table, version=expected + 1, doc=doc)
        saved = self.table
        await self._held()
        return saved


OPS = st.lists(st.one_of(st.just(("move", 0)), st.just(("lookup", 0)), st.just(("miss", 0)),
                         st.tuples(st.just("answer"), st.integers(0, 7))),
               max_size=40)


async def run(ops: list[tuple[str, int]]) -> None:
    store = HeldStore()
    repository = TableRepository(store, meta_idle=1e9)  # type: ignore[arg-type]
    answered = [1]
    """The newest version a save has answered (a later read may not be older)."""
    tasks: list[asyncio.Task[None]] = []

    async def move() -> None:
        async with repository.lock(TABLE):
            stored, doc = await repository.load(TABLE)
            doc.match_no += 1
            saved = await repository.save(stored, doc, hand_over=True)
            answered.append(saved.version)

    async def lookup() -> None:
        floor = max(answered)  # answered before the read began: it cannot be older
        found = await repository.in_channel(CHANNEL)
        assert found is not None
        assert found[0].version >= max(floor, max(answered)), (found[0].version, answered)
        assert found[1].match_no == found[0].version - 1

    async def miss() -> None:
        repository.forget(TABLE)  # evicted: the next find reads storage
        found = await repository.find(TABLE)
        assert found is not None and found[0].version >= max(answered)

    async def turns() -> None:
        for _ in range(20):
            await asyncio.sleep(0)

    for op, arg in ops:
        if op == "answer":
            if store.held:
                store.held.pop(arg % len(store.held)).set_result(None)
        else:
            tasks.append(asyncio.create_task({"move": move, "lookup": lookup,
                                              "miss": miss}[op]()))
        await turns()
    while store.held or not all(task.done() for task in tasks):
        if store.held:
            store.held.pop(0).set_result(None)
        await turns()
    for task in tasks:
        task.result()  # no move refused as stale, no read older than a save answered
    final = repository.in_channel(CHANNEL)
    pending = asyncio.ensure_future(final)
    while not pending.done():
        if store.held:
            store.held.pop(0).set_result(None)
        await turns()
    found = pending.result()
    assert found is not None
    assert found[0].version == store.table.version
    assert found[1].match_no == ops.count(("move", 0))
    live = await repository.find(TABLE)  # from memory now
    assert live is not None and live[0].version == store.table.version


@settings(max_examples=300, deadline=None)
@given(OPS)
def test_reads_without_the_lock_never_roll_the_table_back(ops: list[tuple[str, int]]) -> None:
    asyncio.run(run(ops))
