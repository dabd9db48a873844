"""The bot's budget of Discord REST calls against the per-bot global limit (issue 36).

Discord counts every call made by channel id (sending or editing the table message, a DM
panel, an announcement) against one global limit per bot token (50 a second, all clusters
together). Interaction calls (answering a click, editing its original response, its
follow-ups through the token) are not counted. Every counted call waits here first, by
priority: a person's turn notice and a new hand's panels (`Priority.NOTICE`) before table
message edits (`Priority.TABLE`) before everything else (`Priority.OTHER`). When demand
is above the rate, the table message of a busy table is edited less often
(`RestBudget.table_interval`), never a person's notice.

The caller marks what it sends with `rest_priority(...)` (a context variable, so the
HTTP layer below needs no argument); the HTTP hook (installed by the composition root)
calls `RestBudget.acquire` for every counted route. Discord-free: no import of discord.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator
from enum import IntEnum

__all__ = ["MAX_TABLE_INTERVAL", "Priority", "RestBudget", "current_priority", "rest_priority"]

MAX_TABLE_INTERVAL = 10.0
"""The longest a busy table's message waits between two edits under pressure (seconds)."""


class Priority(IntEnum):
    """Who goes first when calls must wait (lower first)."""

    NOTICE = 0
    """A person's turn notice, a new hand's panels: never delayed by table edits."""
    TABLE = 1
    """The table message (posts and edits), coalesced and stretched under pressure."""
    OTHER = 2
    """Everything else: announcements, closing old messages, pings' tidying."""


_PRIORITY: contextvars.ContextVar[Priority] = contextvars.ContextVar(
    "tractor_rest_priority", default=Priority.OTHER)


def current_priority() -> Priority:
    """The priority of the calls made in this context (`Priority.OTHER` unless marked)."""
    return _PRIORITY.get()


@contextlib.contextmanager
def rest_priority(priority: Priority) -> Iterator[None]:
    """Mark the REST calls made inside the block (and the tasks it starts) as `priority`."""
    token = _PRIORITY.set(priority)
    try:
        yield
    finally:
        _PRIORITY.reset(token)


class RestBudget:
    """At most `rate` counted calls a second, granted by priority (see the module doc)."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock

    async def acquire(self, priority: Priority | None = None) -> None:
        """Wait for the right to make one counted call (`current_priority()` by default)."""

    def table_interval(self, base: float) -> float:
        """Seconds between two edits of a table message now: `base` when the budget has
        room, longer (up to `MAX_TABLE_INTERVAL`) while demand is above the rate."""
        return base
