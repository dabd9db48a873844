"""Short garbage-collector pauses on a busy event loop (issue 16).

CPython's full collection scans every tracked object: with 200 busy tables that is a few
hundred thousand, and the loop stood still for 130–480 ms several times a minute (the
bench's ``GC pauses``). `PauseGuard` freezes what survives a full collection
(``gc.freeze``: the live tables, caches, the bot's own objects, all of them just checked to
be reachable), so the next full collections only scan what is newer and stay short. Once
every `thaw_every` seconds the frozen objects are handed back (``gc.unfreeze``), so
reference cycles that became garbage after being frozen are still collected, by one full
collection then. The client installs it once set up (after `bot.runtime.memory.settle_heap` froze
the start-up heap) and removes it on close (collecting what it kept frozen).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = ["PauseGuard"]

THAW_EVERY = 600.0


class PauseGuard:
    """Freeze the survivors of each full collection (on the loop, right after it)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, thaw_every: float = THAW_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.loop, self.thaw_every, self.clock = loop, thaw_every, clock
        self.thawed = clock()
        self.freezes = self.thaws = 0
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            self._installed = True
            gc.callbacks.append(self._collected)

    def uninstall(self) -> None:
        """Stop; if it froze anything, collect what became garbage since and freeze the
        rest again (as `bot.runtime.memory.settle_heap` leaves the heap)."""
        if self._installed:
            self._installed = False
            gc.callbacks.remove(self._collected)
            if self.freezes or self.thaws:
                gc.unfreeze()
                gc.collect()
                gc.freeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # Runs inside the collection, in whichever thread set it off: act on the loop after.
        if phase == "stop" and info["generation"] == 2 and self._installed:
            with contextlib.suppress(RuntimeError):  # the loop is closed
                self.loop.call_soon_threadsafe(self._settle)

    def _settle(self) -> None:
        if not self._installed:
            return
        if self.clock() - self.thawed >= self.thaw_every:
            gc.unfreeze()  # the next full collection sees everything once more
            self.thawed = self.clock()
            self.thaws += 1
        else:
            gc.freeze()
            self.freezes += 1
