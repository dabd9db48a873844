"""Blocking work off the event loop: pictures and computer players (issue 16).

`run(fn, *args)` runs a module-level function either in a pool of worker *processes*
(``configure(workers=N)``, N ≥ 1: real parallelism, the loop never waits for the
interpreter lock while a picture is drawn, and the workers run at a lower priority so the
loop's process comes first on a busy core) or, by default, in a thread
(``asyncio.to_thread``). The functions and their arguments must pickle (views, labels,
card tuples do). The composition root configures it from `Config.workers` and shuts the
pool down when the bot closes; `python -m bot.bench --workers N` compares both.

With a pool, jobs wait in the bot's process and are handed to the workers a few at a time
(`workers` + 1 in flight), earliest *deadline* first: a job's deadline is when it was asked
for plus its `priority` (seconds of grace): `URGENT` for what a click waits on (a hand
picture: selecting cards answers with the redrawn hand), `NORMAL` for the rest (computer
players, the table picture, which the publisher coalesces anyway). So a backlog of table
pictures or computer turns never holds up a click, and nothing waits forever.

A worker that dies (the pool breaks) or does not answer within `timeout` seconds (it is
stuck) is survived: the pool is replaced (the stuck worker killed) and the job tried once
more in the new pool; the jobs in flight in the old one are tried again the same way. The
timeout starts once a pool has answered once: a worker starting up on a busy machine (its
imports can take long at a low priority) is not stuck.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Collection
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.logging import log

__all__ = ["NORMAL", "URGENT", "configure", "run", "shutdown", "workers"]

T = TypeVar("T")

URGENT = 0.0
"""Someone is waiting for it (a hand picture answering a click)."""
NORMAL = 0.5
"""May wait half a second behind urgent jobs asked for later."""
TIMEOUT = 30.0
"""Seconds a worker may take for one job before it is taken to be stuck."""

_pool: ProcessPoolExecutor | None = None
_answered: ProcessPoolExecutor | None = None
"""The pool once it has answered a job (its workers are up: the timeout applies)."""
_workers = 0
_timeout = TIMEOUT
_settings: dict[str, Any] = {}
_in_flight = 0
_waiting: list[tuple[float, int, asyncio.Future[None]]] = []
_order = itertools.count()


def configure(workers: int, *, cpus: Collection[int] | None = None, nice: int = 10,
              timeout: float = TIMEOUT) -> None:
    """Use `workers` processes from now on (0: threads). Replaces any earlier pool.
    `cpus`: the cores the workers run on (default: the bot's own, inherited); `nice`: how
    much lower their priority is; `timeout`: seconds before a job's worker is taken to be
    stuck (killed, the job tried once more)."""
    global _workers, _timeout, _settings
    shutdown()
    _workers, _timeout = max(0, workers), timeout
    _settings = {"cpus": None if cpus is None else sorted(cpus), "nice": nice}
    if _workers:
        _start()


def _start() -> None:
    """A new pool, its workers started at once, from a thread of their own: starting a
    process polls the ones already started with a zero timeout, which never ends on a
    clock that stands still (SimCord's virtual ``time.monotonic`` on the loop's thread,
    local play), so no process may be started from the loop's thread."""
    global _pool
    # forkserver: workers never inherit the bot's threads (SQLite, timers) mid-flight.
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(_workers, mp_context=context, initializer=_warm,
                               initargs=(_settings["cpus"], _settings["nice"]))
    starter = threading.Thread(target=lambda: [pool.submit(os.getpid)
                                               for _ in range(_workers)],
                               name="offload-start")
    starter.start()
    starter.join()
    _pool = pool


def workers() -> int:
    return _workers


def shutdown() -> None:
    global _pool, _workers
    pool, _pool, _workers = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
    _release_waiting()


def _restart(broken: ProcessPoolExecutor, why: str) -> None:
    """Replace `broken` by a fresh pool (once, however many of its jobs failed)."""
    if _pool is not broken:
        return
    log.warning("offload: worker pool %s; starting a new one", why)
    for process in list((getattr(broken, "_processes", None) or {}).values()):
        process.kill()  # a stuck worker would otherwise keep its core
    broken.shutdown(wait=False, cancel_futures=True)
    _start()


async def run(fn: Callable[..., T], *args: Any, priority: float = NORMAL) -> T:
    """``fn(*args)`` in a worker process, or in a thread when no pool is configured.
    `priority`: seconds this job may wait behind jobs asked for later (`URGENT`,
    `NORMAL`)."""
    for attempt in (1, 2):
        if _pool is None:
            return await asyncio.to_thread(fn, *args)
        await _turn(priority)
        pool = _pool
        try:
            if pool is None:  # shut down while waiting
                return await asyncio.to_thread(fn, *args)
            future = asyncio.wrap_future(pool.submit(fn, *args))
            result = await (asyncio.wait_for(future, _timeout) if pool is _answered
                            else future)
            _note_answer(pool)
            return result
        except BrokenProcessPool:
            if attempt == 2 or pool is None:
                raise
            _restart(pool, "broke (a worker died)")
        except TimeoutError:
            if attempt == 2 or pool is None:
                raise
            _restart(pool, f"did not answer within {_timeout:g} s (a worker is stuck)")
        finally:
            _done()
    raise AssertionError("unreachable")


def _note_answer(pool: ProcessPoolExecutor) -> None:
    global _answered
    _answered = pool


async def _turn(priority: float) -> None:
    """Wait until this job may go to the workers (earliest deadline first)."""
    global _in_flight
    if _in_flight <= _workers and not _waiting:
        _in_flight += 1
        return
    loop = asyncio.get_running_loop()
    ticket: asyncio.Future[None] = loop.create_future()
    heapq.heappush(_waiting, (loop.time() + priority, next(_order), ticket))
    try:
        await ticket  # `_done` counts it in flight when it grants the turn
    except asyncio.CancelledError:
        if ticket.done() and not ticket.cancelled():
            _done()  # granted, then cancelled before it ran: pass the turn on
        raise


def _done() -> None:
    global _in_flight
    _in_flight = max(0, _in_flight - 1)
    while _waiting and _in_flight <= _workers:
        _, _, ticket = heapq.heappop(_waiting)
        if not ticket.done() and not ticket.get_loop().is_closed():
            ticket.set_result(None)
            _in_flight += 1


def _release_waiting() -> None:
    """Let every waiting job go (to the new pool, or to a thread)."""
    global _in_flight
    _in_flight = 0
    waiting = list(_waiting)
    _waiting.clear()
    for _, _, ticket in waiting:
        if not ticket.done() and not ticket.get_loop().is_closed():
            ticket.set_result(None)


def _warm(cpus: list[int] | None = None, nice: int = 10) -> None:
    """Workers yield to the event loop's process (pictures can wait, a click cannot),
    leave Ctrl-C to it (a terminal signals the whole process group; the bot shuts the pool
    down), run on `cpus` if given and load the renderer once."""
    os.nice(nice)
    if cpus is not None:
        os.sched_setaffinity(0, cpus)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from bot import render  # noqa: F401
