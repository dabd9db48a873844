"""Blocking work off the event loop: pictures and computer players (issue 16).

`run(fn, *args)` runs a module-level function either in a pool of worker *processes*
(``configure(workers=N)``, N ≥ 1: real parallelism, the loop never waits for the
interpreter lock while a picture is drawn, and the workers run at a lower priority so the
loop's process comes first on a busy core) or, by default, in a thread
(``asyncio.to_thread``). The functions and their arguments must pickle (views, labels,
card tuples do). The composition root configures it from `Config.workers` and shuts the
pool down when the bot closes; `python -m bot.bench --workers N` compares both.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

__all__ = ["configure", "run", "shutdown", "workers"]

T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
_workers = 0


def configure(workers: int) -> None:
    """Use `workers` processes from now on (0: threads). Replaces any earlier pool."""
    global _pool, _workers
    shutdown()
    _workers = max(0, workers)
    if _workers:
        # forkserver: workers never inherit the bot's threads (SQLite, timers) mid-flight.
        context = multiprocessing.get_context("forkserver")
        _pool = ProcessPoolExecutor(_workers, mp_context=context,
                                    initializer=_warm)


def workers() -> int:
    return _workers


def shutdown() -> None:
    global _pool, _workers
    pool, _pool, _workers = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker process, or in a thread when no pool is configured."""
    pool = _pool
    if pool is None:
        return await asyncio.to_thread(fn, *args)
    return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)


def _warm() -> None:
    """Workers yield to the event loop's process (pictures can wait, a click cannot),
    leave Ctrl-C to it (a terminal signals the whole process group; the bot shuts the pool
    down) and load the renderer once."""
    os.nice(10)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from bot import render  # noqa: F401
