"""Timers: one loop timer per table, due at its stored deadline.

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

from bot.runtime.logging import table_logger

__all__ = ["Clock", "Timers"]

Clock = Callable[[], float]
"""Epoch seconds now."""


Fire = Callable[[int, int], Awaitable[None]]
"""``fire(table_id, step)``: called when a table's deadline passes."""


class Timers:
    """Per-table deadlines. `arm` replaces the table's timer; `cancel` drops it.

    A pending deadline is a loop timer handle (re-arming on every step costs a handle, not
    a task); only a deadline that passes starts a task, which runs `fire`."""

    def __init__(self, fire: Fire, clock: Clock = time.time) -> None:
        self._fire = fire
        self.clock = clock
        self._armed: dict[int, tuple[asyncio.TimerHandle, float, int]] = {}
        self._firing: set[asyncio.Task[None]] = set()

    def arm(self, table_id: int, deadline: float | None, step: int) -> None:
        """Fire at `deadline` for `step` (None: no timer)."""
        current = self._armed.get(table_id)
        if current is not None:
            handle, when, armed_step = current
            if when == deadline and armed_step == step:
                return
            handle.cancel()
            del self._armed[table_id]
        if deadline is None:
            return
        delay = max(0.0, deadline - self.clock())
        handle = asyncio.get_running_loop().call_later(delay, self._due, table_id, step)
        self._armed[table_id] = (handle, deadline, step)

    def cancel(self, table_id: int) -> None:
        self.arm(table_id, None, -1)

    def deadline(self, table_id: int) -> float | None:
        current = self._armed.get(table_id)
        return None if current is None else current[1]

    def _due(self, table_id: int, step: int) -> None:
        entry = self._armed.get(table_id)
        if entry is not None and entry[2] == step:
            del self._armed[table_id]
        task = asyncio.create_task(self._run(table_id, step),
                                   name=f"tractor-timer-{table_id}")
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _run(self, table_id: int, step: int) -> None:
        try:
            await self._fire(table_id, step)
        except Exception:
            table_logger(table_id).exception("timer for step %s failed", step)

    async def close(self) -> None:
        """Drop every pending deadline and wait for the ones firing now."""
        for handle, _, _ in self._armed.values():
            handle.cancel()
        self._armed.clear()
        firing = list(self._firing)
        for task in firing:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
