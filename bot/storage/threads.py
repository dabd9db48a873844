"""Running each transaction on a database thread and answering the event loop cheaply.

Shared by the backends: every transaction is one job run start to finish on a database
thread, so the event loop never waits for the database and a transaction costs one thread
hop; the answers come back through one mailbox per loop (`Mailbox`), so transactions
finishing while the loop is busy share one wakeup of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from bot.storage.errors import StorageError

T = TypeVar("T")


def _settle(answer: asyncio.Future[T], job: Future[T]) -> None:
    """Copy a finished `job`'s outcome to `answer` (unless its caller gave up)."""
    if answer.done():
        return
    if job.cancelled():
        answer.cancel()
    elif (error := job.exception()) is not None:
        answer.set_exception(error)
    else:
        answer.set_result(job.result())


class Mailbox:
    """Answers from the database threads to one event loop: the answer that finds the box
    empty wakes the loop (``call_soon_threadsafe``); those that arrive before the loop got
    to it ride along, so a burst of transactions costs the loop one wakeup, not one each.
    Delivered in the order they were posted (the order the transactions finished)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.wakeups = 0
        self._lock = threading.Lock()
        self._items: list[tuple[asyncio.Future[Any], Future[Any]]] = []

    def answer(self, job: Future[T]) -> asyncio.Future[T]:
        """`job`'s outcome on the loop. Cancelling it leaves `job` alone (the caller
        decides)."""
        answer: asyncio.Future[T] = self.loop.create_future()
        job.add_done_callback(lambda job: self._post(answer, job))
        return answer

    def _post(self, answer: asyncio.Future[Any], job: Future[Any]) -> None:
        with self._lock:  # on a database thread (or the loop's, for a job already done)
            self._items.append((answer, job))
            if len(self._items) > 1:
                return  # a wakeup is on its way
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            self.loop.call_soon_threadsafe(self._deliver)

    def _deliver(self) -> None:
        self.wakeups += 1
        with self._lock:
            items, self._items = self._items, []
        for answer, job in items:
            _settle(answer, job)


class Threaded:
    """A database whose transactions run on thread pools (see the module)."""

    _write_pool: ThreadPoolExecutor
    """The writer's pool (each backend makes its own)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._closed = False
        self._mailbox: Mailbox | None = None
        """Where the transactions' answers come back (the loop using the database)."""

    async def _submit(self, pool: ThreadPoolExecutor, fn: Callable[..., T], *args: object
                      ) -> T:
        """Run ``fn`` on ``pool``. If the caller is cancelled, a job that has not started
        never runs, and one that has is waited for, so that when the cancellation
        arrives the transaction has either happened or never will."""
        if self._closed:
            raise StorageError(f"{self.path}: the store is closed")
        mailbox = self._mailbox
        if mailbox is None or mailbox.loop is not asyncio.get_running_loop():
            mailbox = self._mailbox = Mailbox(asyncio.get_running_loop())
        job = pool.submit(fn, *args)
        try:
            return await mailbox.answer(job)
        except asyncio.CancelledError:
            if not job.cancel():  # already running: a transaction cannot be interrupted
                while not job.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await mailbox.answer(job)
            raise

