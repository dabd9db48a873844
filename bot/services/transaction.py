"""One transaction on a table (`Tx`): what `TableService.transact` hands a change, and what
the autopilot reads and sets of it (a module of its own, below both)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.table import TableDoc
from bot.services.outcome import Publish
from bot.storage import HandAction, HandRecord, MatchRecord, StoredTable, TableStatus
from engine.events import Event

__all__ = ["Tx"]


@dataclass(slots=True)
class Tx:
    """One transaction on a table: mutate ``doc``; fill the records and what to publish."""

    table: StoredTable
    doc: TableDoc
    status: TableStatus | None = None
    actions: list[HandAction] = field(default_factory=list)
    hand: HandRecord | None = None
    match: MatchRecord | None = None
    publish: Publish = field(default_factory=Publish)
    events: list[Event] = field(default_factory=list)
    end: bool = False
    changed: bool = True
    """Set False to commit nothing (a no-op)."""

    @property
    def table_id(self) -> int:
        return self.table.id
