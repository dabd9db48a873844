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
HTTP layer below needs no argument); the HTTP hook (bot/app/rest.py, installed by the
composition root) calls `RestBudget.acquire` for every counted route (`counted`).
Discord-free.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import logging
import math
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from enum import IntEnum

__all__ = ["MAX_TABLE_INTERVAL", "Pressure", "Priority", "RestBudget", "counted",
           "current_priority", "rest_priority"]

log = logging.getLogger("tractor.budget")

MAX_TABLE_INTERVAL = 10.0
"""The longest a busy table's message waits between two edits under pressure (seconds)."""


_FREE = re.compile(r"^/(?:interactions/|webhooks/[^/?]+/[^/?]+)")
"""Interaction endpoints: a click's answer (``/interactions/{id}/{token}/callback``) and
everything through its token (``/webhooks/{application_id}/{token}...``: the original
response, follow-ups). Discord does not count them against the global limit."""


def counted(path: str) -> bool:
    """Whether a REST call to `path` (after ``/api/v10``; a route's template or a concrete
    path) counts against the bot's global limit: everything but interaction endpoints."""
    return _FREE.match(path) is None


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
    """At most `rate` counted calls a second, granted by priority (see the module doc).

    A sliding window: at most `burst` grants in any `window` seconds (``floor(rate)`` in
    any second; below one a second, one call every ``1/rate`` seconds), so that no 1-second
    window at Discord sees more than the rate, however its windows are aligned. Waiting
    calls are granted strictly by priority, first come first served within one: each sleeps
    (on its own timer, which SimCord's settling recognises) until the slot its place in the
    line should get, then looks again (a higher priority may have come in front). `clock`
    and `sleep` are read at each use (under SimCord, ``time.monotonic`` and
    ``asyncio.sleep`` are its virtual clock); tests and benches may replace them.
    ``rate=math.inf``: no limit (the tests' default).
    """

    def __init__(self, rate: float, *, clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[object]] | None = None) -> None:
        if not rate > 0:
            raise ValueError(f"a REST budget must be above 0 calls a second, not {rate!r}")
        self.rate = rate
        self.clock: Callable[[], float] = clock if clock is not None else _monotonic
        self.sleep: Callable[[float], Awaitable[object]] = (
            sleep if sleep is not None else _asleep)
        limited = math.isfinite(rate)
        self.burst = max(1, math.floor(rate)) if limited else 0
        """Grants allowed in any `window` (0: no limit)."""
        self.window = max(1.0, self.burst / rate) if limited else 0.0
        self._grants: collections.deque[float] = collections.deque(maxlen=self.burst or 1)
        self._queues: dict[Priority, collections.deque[_Ticket]] = {
            p: collections.deque() for p in Priority}
        self.pressure = Pressure(rate)
        self.granted: Counter[Priority] = Counter()
        """Calls granted so far, by priority."""
        self.waited: dict[Priority, float] = dict.fromkeys(Priority, 0.0)
        """Seconds waited so far, by priority (with `granted`: the mean wait)."""
        self.longest: dict[Priority, float] = dict.fromkeys(Priority, 0.0)
        """The longest wait so far, by priority (seconds)."""

    @property
    def waiting(self) -> int:
        """Calls waiting for a slot now."""
        return sum(len(queue) for queue in self._queues.values())

    async def acquire(self, priority: Priority | None = None) -> None:
        """Wait for the right to make one counted call (`current_priority()` by default)."""
        chosen = current_priority() if priority is None else priority
        asked = now = self.clock()
        self.pressure.demand(now, chosen, self.waiting)
        if not self.burst or (not self.waiting and self._free(now)):
            self._grant(now, chosen)
            return
        ticket = _Ticket()
        queue = self._queues[chosen]
        queue.append(ticket)
        try:
            while True:
                now = self.clock()
                if self._ahead(ticket) == 0 and self._free(now):
                    queue.popleft()
                    ticket.granted = True
                    self._grant(now, chosen)
                    break
                # its own timer (not a future another task resolves): SimCord sees a sleep
                delay = self._slot_after(self._ahead(ticket), now) - now
                await (self.sleep(delay) if delay > _EPS else asyncio.sleep(0))
        finally:
            if not ticket.granted:
                queue.remove(ticket)
        self._note_wait(chosen, self.clock() - asked)

    def table_interval(self, base: float) -> float:
        """Seconds between two edits of a table message now: `base` when the budget has
        room, longer (up to `MAX_TABLE_INTERVAL`) while demand is above the rate. A
        sub-second `base` counts as one second once stretched."""
        stretch = self.pressure.stretch_at(self.clock(), self.waiting)
        if stretch <= 1.0:
            return base
        interval = max(base, min(MAX_TABLE_INTERVAL, max(base, 1.0) * stretch))
        self.pressure.report(self.clock(), base, interval)
        return interval

    # ---- inside ---------------------------------------------------------------------------

    def _free(self, now: float) -> bool:
        return len(self._grants) < self.burst or now - self._grants[0] >= self.window - _EPS

    def _grant(self, now: float, priority: Priority) -> None:
        if self.burst:
            self._grants.append(now)
        self.granted[priority] += 1

    def _note_wait(self, priority: Priority, wait: float) -> None:
        self.waited[priority] += wait
        self.longest[priority] = max(self.longest[priority], wait)

    def _ahead(self, ticket: _Ticket) -> int:
        """Calls waiting ahead of `ticket`: every one of a first priority, then the older
        of its own."""
        ahead = 0
        for queue in self._queues.values():
            if ticket in queue:
                return ahead + queue.index(ticket)
            ahead += len(queue)
        raise ValueError("not waiting")

    def _slot_after(self, ahead: int, now: float) -> float:
        """When the slot after `ahead` more grants frees up (if no one else asks first)."""
        grants = collections.deque(self._grants, maxlen=self.burst)
        when = now
        for _ in range(ahead + 1):
            when = max(now, grants[0] + self.window) if len(grants) >= self.burst else now
            grants.append(when)
        return when


class _Ticket:
    """One waiting call's place in its queue."""

    __slots__ = ("granted",)

    def __init__(self) -> None:
        self.granted = False


class Pressure:
    """Demand against the rate, period by period (`PERIOD` seconds), and the stretch it
    asks of the table messages' edit interval: above `TARGET` of the rate the stretch
    grows by the overload (at most doubling a period), below `EASE` of it it eases back
    (at most `EASE_STEP` a period) to 1. Table edits are most of what stretching
    removes, so the loop closes: fewer edits, less demand, the stretch holds."""

    PERIOD = 2.0
    TARGET = 0.9
    EASE = 0.75
    EASE_STEP = 0.8
    MAX_STRETCH = MAX_TABLE_INTERVAL
    LOG_EVERY = 60.0

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.stretch = 1.0
        self.load = 0.0
        """Demand over the rate in the last finished period (waiting calls included)."""
        self._start: float | None = None
        self._asked: Counter[Priority] = Counter()
        self._logged: float | None = None

    def demand(self, now: float, priority: Priority, waiting: int) -> None:
        """One call asked for at `now` (`waiting`: calls already waiting)."""
        self._roll(now, waiting)
        self._asked[priority] += 1

    def stretch_at(self, now: float, waiting: int) -> float:
        self._roll(now, waiting)
        return self.stretch

    def report(self, now: float, base: float, interval: float) -> None:
        """Log (INFO, once a minute at most) that tables are being slowed."""
        if self._logged is not None and now - self._logged < self.LOG_EVERY:
            return
        self._logged = now
        log.info("REST budget: demand %.0f%% of %g calls/s; table messages are edited every "
                 "%.1f s instead of every %g s", self.load * 100, self.rate, interval, base)

    def _roll(self, now: float, waiting: int) -> None:
        if self._start is None:
            self._start = now
            return
        elapsed = now - self._start
        if elapsed < self.PERIOD or not math.isfinite(self.rate):
            return
        self.load = (sum(self._asked.values()) + waiting) / (self.rate * elapsed)
        if self.load > self.TARGET:
            self.stretch = min(self.MAX_STRETCH, self.stretch * min(2.0, self.load / self.TARGET))
        elif self.load < self.EASE:
            self.stretch = max(1.0, self.stretch * max(self.EASE_STEP, self.load / self.EASE))
        self._asked.clear()
        self._start = now


_EPS = 1e-9


def _monotonic() -> float:
    return time.monotonic()  # looked up at each call: SimCord replaces it


async def _asleep(seconds: float) -> None:
    await asyncio.sleep(seconds)  # looked up at each call (a bench replaces the module's)
