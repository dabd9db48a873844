"""Timers: one asyncio task per table sleeping until its stored deadline.

Deadlines are epoch seconds in the table document (so they survive a restart: the bot
re-arms them from the stored value, with a short grace if they passed while it was down).
A timer carries the step it was armed for; when it fires the service ignores it if the
table has moved on. Time is read through the `Clock` the composition root passes in
(``discord.utils.utcnow``, which SimCord virtualizes, so tests drive timers with
``env.advance_time``); this module does not import discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from bot.logging import table_logger

__all__ = ["Clock", "Timers"]

Clock = Callable[[], float]
"""Epoch seconds now."""


Fire = Callable[[int, int], Awaitable[None]]
"""``fire(table_id, step)``: called when a table's deadline passes."""


class Timers:
    """Per-table deadline tasks. `arm` replaces the table's timer; `cancel` drops it."""

    def __init__(self, fire: Fire, clock: Clock = time.time) -> None:
        self._fire = fire
        self.clock = clock
        self._tasks: dict[int, tuple[asyncio.Task[None], float, int]] = {}

    def arm(self, table_id: int, deadline: float | None, step: int) -> None:
        """Fire at `deadline` for `step` (None: no timer)."""
        current = self._tasks.get(table_id)
        if current is not None:
            task, when, armed_step = current
            if not task.done() and when == deadline and armed_step == step:
                return
            if task is not asyncio.current_task():
                task.cancel()
            del self._tasks[table_id]
        if deadline is None:
            return
        task = asyncio.create_task(self._run(table_id, deadline, step),
                                   name=f"tractor-timer-{table_id}")
        self._tasks[table_id] = (task, deadline, step)

    def cancel(self, table_id: int) -> None:
        self.arm(table_id, None, -1)

    def deadline(self, table_id: int) -> float | None:
        current = self._tasks.get(table_id)
        return None if current is None or current[0].done() else current[1]

    async def _run(self, table_id: int, deadline: float, step: int) -> None:
        delay = deadline - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)
        entry = self._tasks.get(table_id)
        if entry is not None and entry[0] is asyncio.current_task():
            del self._tasks[table_id]
        try:
            await self._fire(table_id, step)
        except Exception:
            table_logger(table_id).exception("timer for step %s failed", step)

    async def close(self) -> None:
        tasks = [entry[0] for entry in self._tasks.values()]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
