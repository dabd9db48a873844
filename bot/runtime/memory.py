"""The process's garbage collector: set up in ONE place, once the bot is built (issue 16).

Why: a running bot holds a large, long-lived heap (modules, translation catalogs, fonts,
discord.py's state, the live tables) and makes many short-lived objects per move (a
parsed click, a transaction, panels, tasks and futures). CPython's defaults (a young
collection every 700 net allocations, a middle one every 10 young ones) were made for
small scripts: at 10 busy tables they meant 7 young and 0.7 middle collections a second,
each scanning objects a move was still using, which the next one then promoted, scanned
again and left for a full collection. So:

* `THRESHOLDS`: a young collection every 10,000 net allocations (about one every few
  moves, so most of a move's objects are gone by refcount before any collection sees
  them); the older generations keep CPython's ratios;
* `settle_heap`: once set up, everything alive is collected once and frozen
  (``gc.freeze``): those objects live as long as the process, and no collection walks
  them again;
* `bot.runtime.collector.PauseGuard`: the survivors of each later full collection are frozen too
  (thawed every ten minutes so that cycles among them are still freed), so full
  collections stay short however many tables are live.

`configure` does all three (``setup_hook`` calls it once the bot is set up); the freeze is
done once per process, the thresholds and the guard for every bot.
"""

from __future__ import annotations

import asyncio
import gc

from bot.runtime.collector import PauseGuard

__all__ = ["THRESHOLDS", "configure", "settle_heap"]

THRESHOLDS = (10_000, 10, 10)
"""``gc.set_threshold``: young collections every 10,000 net allocations (CPython: 700)."""

_settled = False


def settle_heap() -> bool:
    """Collect, then freeze what survives (the first call in a process only; returns
    whether this call did it)."""
    global _settled
    if _settled:
        return False
    _settled = True
    gc.collect()
    gc.freeze()
    return True


def configure(loop: asyncio.AbstractEventLoop) -> PauseGuard:
    """Set the collector up for a bot that is set up (`THRESHOLDS`, `settle_heap`) and
    return its installed `PauseGuard` (the bot uninstalls it when it closes)."""
    gc.set_threshold(*THRESHOLDS)
    settle_heap()
    guard = PauseGuard(loop)
    guard.install()
    return guard
