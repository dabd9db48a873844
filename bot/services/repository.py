"""`TableRepository`: tables in and out of storage, one `asyncio.Lock` per table, the
versioned save (compare-and-set on the stored version, `bot.storage.StaleVersion`), and the
live tables kept in memory between moves.

The database stays the truth (the bot is the only writer of its tables): every accepted
change is written (`save`) before anyone sees it, and the in-memory copy is replaced only
after that write committed. A table is read from storage on a cache miss, or when storage
shows a newer version than the cached one (a channel lookup); a save refused as stale, or
failing, drops the cached copy, so the next load reads the database again.

Reads without the table's lock (a channel lookup, a cache miss) may come back after a save
that committed while they were out: versions are compared by ORDER, never by difference.
The highest version each table is known to have reached (`_newest`: saved here or read) is
kept, and a read older than it never replaces the live copy nor is handed out: the newer
live copy is, or storage is read again (issue 32 item 1: a lookup rolled the cache back, so
the table message stayed a step behind and the next move was refused as stale). Callers always get
their own copy of the document (`TableDoc` fields copied one level; the parsed engine
`Match`, which is immutable, is shared), so a refused transaction never leaks into the
cache and no deep copy is made; readers that change nothing ask for the live document
itself (``shared=True``), and a transaction hands its saved document over as the new live
copy (``hand_over=True``): one copy per move.

Publish-only bookkeeping that comes with every move (the message ids of the DM panels the
publisher sends) need not be saved on its own: `defer_meta` applies it to the live copy at once
and keeps it until the table's next save writes it along (`save` applies it to the document it
writes; a copy read again from storage gets it too), so a move costs one save; `flush_meta`
writes what is left when the bot closes (SIGINT/SIGTERM), and bookkeeping no save has taken
along within `META_IDLE` seconds (a player thinking) is saved on its own then: at most one
extra save per table and idle spell, none while moves keep coming. Only a crash within that
time loses those ids: the restart edits the panel message last stored (the newer one keeps
its buttons). `update_meta` saves at once, after what was deferred (the later change wins).

``stats`` counts database loads (``load``), documents parsed (``parse``), tables handed
out from memory (``hit``) and saves (``save``), so a test can pin what one action costs.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import fields

from bot.core.errors import UserFacingError
from bot.core.table import Seat, TableDoc
from bot.storage import StaleVersion, Storage, StorageError, StoredTable

__all__ = ["TableRepository", "fresh_copy"]

META_IDLE = 10.0
"""Seconds deferred bookkeeping waits for the table's next save before it is saved alone."""
READS = 3
"""Reads of a table from storage at most, while each comes back older than a save made
meanwhile (a read begun after that save is as new: the second always suffices)."""
CACHE_SIZE = 10_000
"""Live tables kept in memory (least recently used dropped first)."""

_SHARED = frozenset({"match", "_parsed"})
"""Fields handed out as they are: the stored match dict (replaced, never changed in place)
and its parsed `Match`."""

_DOC_FIELDS = tuple(f.name for f in fields(TableDoc))
_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


def fresh_copy(doc: TableDoc) -> TableDoc:
    """A copy of `doc` whose containers (seats, lists, dicts) can be changed freely (one
    level deep; the match dict and its parsed `Match` shared)."""
    new = object.__new__(TableDoc)
    for name in _DOC_FIELDS:
        value = getattr(doc, name)
        if name in _SHARED:
            pass
        elif type(value) is list:
            value = [_one(item) for item in value]
        elif type(value) is dict:
            value = dict(value)
        setattr(new, name, value)
    return new


def _one(item: object) -> object:
    """An element of a document's list, copied as `fresh_copy` promises."""
    if item is None or type(item) in (str, int, float, bool):
        return item
    if type(item) is Seat:
        seat = object.__new__(Seat)
        for name in _SEAT_FIELDS:
            setattr(seat, name, getattr(item, name))
        return seat
    if isinstance(item, list):
        return list(item)
    if isinstance(item, dict):
        return dict(item)
    return copy.copy(item)


class TableRepository:
    """Loads and saves table documents through the storage interface (`bot.storage.Storage`)."""

    def __init__(self, store: Storage, *, cache_size: int = CACHE_SIZE,
                 meta_idle: float = META_IDLE) -> None:
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}
        self._live: OrderedDict[int, tuple[StoredTable, TableDoc]] = OrderedDict()
        self._newest: dict[int, int] = {}
        """The highest version each table is known to have reached (saved or read)."""
        self._cache_size = cache_size
        self._meta: dict[int, list[Callable[[TableDoc], None]]] = {}
        self._meta_idle = meta_idle
        self._meta_timers: dict[int, asyncio.TimerHandle] = {}
        self._meta_saving: set[asyncio.Task[None]] = set()
        self.stats: Counter[str] = Counter()
        """``load``, ``parse``, ``hit``, ``save``: how many of each this process made."""

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    # ---- the cache ---------------------------------------------------------------------

    def _remember(self, stored: StoredTable, doc: TableDoc, shared: bool = False
                  ) -> tuple[StoredTable, TableDoc]:
        """Keep `doc` as the live copy of the table; hand out a copy of it (`shared`: the
        live copy itself, for a reader that changes nothing)."""
        live = self._live
        live[stored.id] = (stored, doc)
        live.move_to_end(stored.id)
        while len(live) > self._cache_size:
            live.popitem(last=False)
        return stored, doc if shared else fresh_copy(doc)

    def _from_storage(self, stored: StoredTable, shared: bool = False, *, last: bool = False
                      ) -> tuple[StoredTable, TableDoc] | None:
        """`stored` as the live table, unless it is older than a version already known
        (a read that raced a save): then the live copy if it is that new, else None (the
        caller reads again; `last`: the read handed out as it is, not kept)."""
        table_id = stored.id
        newest = self._newest.get(table_id, 0)
        cached = self._live.get(table_id)
        if stored.version < newest:
            self.stats["stale"] += 1
            if cached is not None and cached[0].version >= newest:
                return self._remember(*cached, shared)
            if not last:
                return None
            self.stats["parse"] += 1
            return stored, TableDoc.from_dict(stored.doc)
        self._saw(table_id, stored.version)
        if cached is not None and cached[0].version == stored.version:
            return self._remember(stored, cached[1], shared)
        self.stats["parse"] += 1
        doc = TableDoc.from_dict(stored.doc)
        for fn in self._meta.get(table_id, ()):
            fn(doc)
        return self._remember(stored, doc, shared)

    def _saw(self, table_id: int, version: int) -> None:
        """The table is known to have reached `version` (no older read is kept from now)."""
        if version > self._newest.get(table_id, 0):
            self._newest[table_id] = version

    def forget(self, table_id: int) -> None:
        """Drop the in-memory copy (the next load reads storage)."""
        self._live.pop(table_id, None)

    # ---- reads ---------------------------------------------------------------------------

    async def find(self, table_id: int, *, shared: bool = False
                   ) -> tuple[StoredTable, TableDoc] | None:
        """The stored table (ended ones too), or None. `shared`: the live document itself,
        not a copy, for a reader that changes nothing (it is replaced, never changed, by
        the next save; only deferred bookkeeping is applied to it in place)."""
        cached = self._live.get(table_id)
        if cached is not None:
            self.stats["hit"] += 1
            return self._remember(*cached, shared)
        for attempt in range(READS):
            self.stats["load"] += 1
            stored = await self.store.load_table(table_id)
            if stored is None:
                return None
            found = self._from_storage(stored, shared, last=attempt == READS - 1)
            if found is not None:
                return found
        raise AssertionError("unreachable")

    async def load(self, table_id: int, *, shared: bool = False
                   ) -> tuple[StoredTable, TableDoc]:
        """An open table; `UserFacingError` ``error.table_gone`` if it ended or never was.
        `shared` as in `find`."""
        found = await self.find(table_id, shared=shared)
        if found is None or found[0].status == "ended":
            raise UserFacingError("error.table_gone")
        return found

    async def in_channel(self, channel_id: int) -> tuple[StoredTable, TableDoc] | None:
        """The open table of a channel, if any."""
        for attempt in range(READS):
            self.stats["load"] += 1
            stored = await self.store.table_in_channel(channel_id)
            if stored is None:
                return None
            found = self._from_storage(stored, last=attempt == READS - 1)
            if found is not None:
                return found
        raise AssertionError("unreachable")

    # ---- writes --------------------------------------------------------------------------

    async def save(self, stored: StoredTable, doc: TableDoc, *, hand_over: bool = False,
                   **changes: object) -> StoredTable:
        """Save `doc` over `stored` (its version must still be current); keyword `changes`
        go to `Store.save_table` (status, deadline, actions, hand, match). `hand_over`: the
        caller changes `doc` no more once saved, so it becomes the live copy as it is (no
        copy made)."""
        self.stats["save"] += 1
        pending = self._meta.get(stored.id, [])
        written = len(pending)
        for fn in pending:
            fn(doc)
        try:
            saved = await self.store.save_table(stored.id, stored.version, doc.to_dict(),
                                                **changes)  # type: ignore[arg-type]
        except StaleVersion as stale:  # another writer got there first
            self.forget(stored.id)
            self._saw(stored.id, stale.actual)
            raise
        except BaseException:  # not known to be written
            self.forget(stored.id)
            raise
        self._saw(saved.id, saved.version)
        later = self._meta.pop(saved.id, [])[written:]  # deferred while this save ran
        if not later:
            self._idle_done(saved.id)
        if saved.status == "ended":
            self.forget(saved.id)
        else:  # the caller keeps its own `doc`
            live = doc if hand_over else fresh_copy(doc)
            for fn in later:
                fn(live)
            if later:
                self._meta[saved.id] = later
            self._remember(saved, live, shared=True)  # nothing handed out
        return saved

    def defer_meta(self, table_id: int, fn: Callable[[TableDoc], None]) -> None:
        """Record bookkeeping (message ids) with the table's next save, not a save of its
        own; the live copy shows it at once. `fn` must be idempotent (it may run again on a
        copy read from storage, and on the document the next save writes)."""
        self._meta.setdefault(table_id, []).append(fn)
        cached = self._live.get(table_id)
        if cached is not None:
            fn(cached[1])
        if table_id not in self._meta_timers:
            with contextlib.suppress(RuntimeError):  # no running loop: no idle save
                self._meta_timers[table_id] = asyncio.get_running_loop().call_later(
                    self._meta_idle, self._idle, table_id)

    def _idle(self, table_id: int) -> None:
        """`META_IDLE` seconds without a save took the table's bookkeeping: save it."""
        self._meta_timers.pop(table_id, None)
        if table_id in self._meta:
            task = asyncio.ensure_future(self._save_meta(table_id))
            self._meta_saving.add(task)
            task.add_done_callback(self._meta_saving.discard)

    def _idle_done(self, table_id: int) -> None:
        timer = self._meta_timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()

    async def _save_meta(self, table_id: int) -> None:
        """The table's deferred bookkeeping saved on its own (best effort: a database that
        cannot be written keeps it for the next save, tried again after `META_IDLE`)."""
        with contextlib.suppress(StorageError):
            await self.update_meta(table_id, lambda doc: None)

    async def flush_meta(self) -> None:
        """Save the bookkeeping still waiting for a next save (shutdown; best effort: a
        database that cannot be written just loses those ids)."""
        for timer in self._meta_timers.values():
            timer.cancel()
        self._meta_timers.clear()
        for table_id in list(self._meta):
            with contextlib.suppress(StorageError):
                await self.update_meta(table_id, lambda doc: None)
        self._meta.clear()
        for timer in self._meta_timers.values():  # armed again by those saves
            timer.cancel()
        self._meta_timers.clear()

    async def update_meta(self, table_id: int, fn: Callable[[TableDoc], None]) -> None:
        """Record message ids and similar bookkeeping now, with its own save (no step change,
        nothing published); a table that ended is left alone."""
        try:
            async with self.lock(table_id):
                stored, doc = await self.load(table_id)
                self.defer_meta(table_id, fn)  # queued after the deferred ones: it wins
                await self.save(stored, doc)
        except (UserFacingError, StaleVersion):
            pass
