"""`TableRepository`: tables in and out of storage, one `asyncio.Lock` per table, and the
versioned save (compare-and-set on the stored version, `bot.storage.StaleVersion`).

Write-through cache: the bot is the only writer of its tables, so the last table it
loaded or saved is kept (with its parsed match) and a Play press reads the database at
most once. A save refused as stale, or failing, drops the table from the cache, so the
next load reads the database again. ``stats`` counts database loads and saves."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

from bot.errors import UserFacingError
from bot.storage import StaleVersion, Store, StoredTable
from bot.table import TableDoc
from engine.game import Match

__all__ = ["TableRepository"]


class TableRepository:
    """Loads and saves table documents through the `Store` facade."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}
        self.stats: Counter[str] = Counter()
        """``load``, ``save``: how many of each this process made (diagnostics, tests)."""
        self._cache: dict[int, tuple[StoredTable, Match | None]] = {}

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def find(self, table_id: int) -> tuple[StoredTable, TableDoc] | None:
        """The stored table (ended ones too), or None."""
        cached = self._cache.get(table_id)
        if cached is None:
            self.stats["load"] += 1
            stored = await self.store.load_table(table_id)
            if stored is None:
                return None
            cached = self._cache[table_id] = (stored, None)
        stored, match = cached
        doc = TableDoc.from_dict(stored.doc)
        if match is not None and doc.match is not None:
            doc.seed_match(match)
        return stored, doc

    async def load(self, table_id: int) -> tuple[StoredTable, TableDoc]:
        """An open table; `UserFacingError` ``error.table_gone`` if it ended or never was."""
        found = await self.find(table_id)
        if found is None or found[0].status == "ended":
            raise UserFacingError("error.table_gone")
        return found

    async def in_channel(self, channel_id: int) -> tuple[StoredTable, TableDoc] | None:
        """The open table of a channel, if any."""
        self.stats["load"] += 1
        stored = await self.store.table_in_channel(channel_id)
        return None if stored is None else (stored, TableDoc.from_dict(stored.doc))

    async def save(self, stored: StoredTable, doc: TableDoc, **changes: object) -> StoredTable:
        """Save `doc` over `stored` (its version must still be current); keyword `changes`
        go to `Store.save_table` (status, deadline, actions, hand, match)."""
        self.stats["save"] += 1
        try:
            saved = await self.store.save_table(stored.id, stored.version, doc.to_dict(),
                                                **changes)  # type: ignore[arg-type]
        except BaseException:
            self._cache.pop(stored.id, None)
            raise
        self._cache[stored.id] = (saved, doc.get_match())
        return saved

    def forget(self, table_id: int) -> None:
        """Read the table from the database next time."""
        self._cache.pop(table_id, None)

    async def update_meta(self, table_id: int, fn: Callable[[TableDoc], None]) -> None:
        """Record message ids and similar bookkeeping (no step change, nothing published);
        a table that ended or moved on meanwhile is left alone."""
        try:
            async with self.lock(table_id):
                stored, doc = await self.load(table_id)
                fn(doc)
                await self.save(stored, doc)
        except (UserFacingError, StaleVersion):
            pass
