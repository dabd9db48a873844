"""Blocking work off the event loop: pictures and computer players (issue 16).

`Workers` is the worker pool, an object: the composition root builds it from
`Config.workers` and hands it to what needs it (the publisher and its pictures, the
autopilot's computer players), and shuts it down when the bot closes. ``run(fn, *args)``
runs a module-level function either in a pool of worker *processes* (``Workers(N)``, N ≥ 1:
real parallelism, the loop never waits for the interpreter lock while a picture is drawn,
and the workers run at a lower priority so the loop's process comes first on a busy core)
or, with ``Workers(0)``, in a thread (``asyncio.to_thread``). The functions and their
arguments must pickle (views, labels, card tuples do; a view as plain data,
`engine.wire`); `python -m tools.bench --workers N` compares both.

People first (issue 32 item 3): with a pool, jobs wait in the bot's process and go to the
workers by strict priority, first come first served within one: `PEOPLE` (what a person
waits for: their own panel's picture and Quick plays, a card pick's redraw, My hand), then
`PICTURES` (the table picture, a hand's summary), then `COMPUTERS` (computer players and
timeouts). Other jobs go only while a worker is free; a person's job may also take the one
place in each worker's pipe behind the job it runs, so it waits behind at most that job,
never behind a backlog of computer turns or other tables' pictures. Computers slow down
under load (their turns wait); people's clicks do not.

No thread stands between the loop and the workers (`_Pool`): the loop writes a job to its
worker's pipe and reads the answers from the worker's answer pipe itself
(``loop.add_reader``), so an answer costs no thread hop (a ``ProcessPoolExecutor`` costs two
threads and four switches per job), and the answers that arrived together are delivered in
one wakeup, each to its own caller, in the order the worker finished them.

`warm` asks for several jobs in ONE round trip (one job of the worker, one answer, one
wakeup), each answer handed to the cache its usual path reads (`Want`): the publisher asks
so for everything one publish draws or computes, a panel for its picture and Quick plays.

A worker that dies (its pipe closes) or does not answer within `timeout` seconds (it is
stuck: one watchdog timer for the pool, armed while jobs are out) is survived: the pool is
replaced (every worker killed) and the job tried once more in the new pool; the jobs in
flight in the old one are tried again the same way. The timeout starts once a pool has
answered once: a worker starting up on a busy machine (its imports can take long at a low
priority) is not stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import heapq
import itertools
import multiprocessing
import os
import pickle
import signal
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot.runtime.logging import log

__all__ = ["COMPUTERS", "NORMAL", "PEOPLE", "PICTURES", "URGENT", "Want", "Workers"]

T = TypeVar("T")

PEOPLE = 0
"""A person waits for it: their own panel (a card pick's redraw, the panel after Play, My
hand), its picture and Quick plays."""
PICTURES = 1
"""Pictures people see but did not click for: the table picture, a hand's summary."""
COMPUTERS = 2
"""Computer players' and timeouts' thinking: may wait while people are served."""
URGENT, NORMAL = PEOPLE, PICTURES
"""The names before issue 32 (a job's grace in seconds then; now its class)."""
TIMEOUT = 30.0
"""Seconds a worker may take for one job before it is taken to be stuck."""
PIPE_SIZE = 1 << 20
"""Bytes an answer pipe holds (Linux; the default 64 KiB would split a picture, and each
part would wake the loop)."""


class Workers:
    """The worker pool: `count` processes (0: threads), built by the composition root and
    handed to what uses it (the publisher's pictures, the autopilot's computer players).

    Jobs wait in the bot's process by strict priority, `PEOPLE` before `PICTURES` before
    `COMPUTERS`, first come first served within one: a person's job overtakes every
    queued picture and computer turn. A job of `PEOPLE` may go to the workers while one
    other job is in flight per worker (its worker answers it next); the others only while
    a worker is free, so a person's job waits behind at most the job running."""

    def __init__(self, count: int = 0, *, cpus: Collection[int] | None = None,
                 nice: int = 10, timeout: float = TIMEOUT) -> None:
        """`count` processes (0: threads); `cpus`: the cores the workers run on
        (default: the bot's own, inherited); `nice`: how much lower their priority is;
        `timeout`: seconds before a job's worker is taken to be stuck (killed, the job
        tried once more)."""
        self.count = max(0, count)
        self.timeout = timeout
        self._settings: dict[str, Any] = {
            "cpus": None if cpus is None else sorted(cpus), "nice": nice}
        self.pool: _Pool | None = None
        self._in_flight = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        if self.count:
            self._start()

    def _start(self) -> None:
        """A new pool, its workers started at once, from a thread of their own: starting
        a process polls the ones already started with a zero timeout, which never ends on
        a clock that stands still (SimCord's virtual ``time.monotonic`` on the loop's
        thread, local play), so no process may be started from the loop's thread."""
        # forkserver: workers never inherit the bot's threads (SQLite, timers) mid-flight.
        context = multiprocessing.get_context("forkserver")
        started: list[_Worker] = []
        starter = threading.Thread(
            target=lambda: started.extend(_Worker.start(context, self._settings)
                                          for _ in range(self.count)),
            name="offload-start")
        starter.start()
        starter.join()
        if len(started) != self.count:
            for worker in started:
                worker.close(kill=True)
            raise RuntimeError("offload: the worker processes could not be started")
        self.pool = _Pool(started, self.timeout)

    def shutdown(self) -> None:
        """Stop the workers (jobs still waiting run in threads); idempotent."""
        pool, self.pool, self.count = self.pool, None, 0
        if pool is not None:
            pool.close(BrokenProcessPool("the pool was shut down"))
        self._release_waiting()

    def _restart(self, broken: _Pool, why: str) -> None:
        """Replace `broken` by a fresh pool (once, however many of its jobs failed)."""
        if self.pool is not broken:
            return
        log.warning("offload: worker pool %s; starting a new one", why)
        broken.close(BrokenProcessPool(why))  # a stuck worker would otherwise keep its core
        self._start()

    async def run(self, fn: Callable[..., T], *args: Any, priority: int = COMPUTERS) -> T:
        """``fn(*args)`` in a worker process, or in a thread when there is none.
        `priority`: `PEOPLE`, `PICTURES` or `COMPUTERS`."""
        for attempt in (1, 2):
            if self.pool is None:
                return await asyncio.to_thread(fn, *args)
            await self._turn(priority)
            pool = self._current()
            try:
                if pool is None:  # shut down while waiting
                    return await asyncio.to_thread(fn, *args)
                result: T = await pool.submit(fn, args)
                return result
            except BrokenProcessPool:
                if attempt == 2 or pool is None:
                    raise
                self._restart(pool, "broke (a worker died)")
            except TimeoutError:
                if attempt == 2 or pool is None:
                    raise
                self._restart(pool, f"did not answer within {self.timeout:g} s "
                                    "(a worker is stuck)")
            finally:
                self._done()
        raise AssertionError("unreachable")

    async def warm(self, wants: Sequence[Want], priority: int = PEOPLE) -> None:
        """Several jobs in ONE round trip to the workers (one job sent, one answer, one
        wakeup of the loop instead of one each), each answer handed to its `keep`. A job
        that fails is left to the usual path, which asks again and reports the error; a
        pool that breaks or sticks twice raises as `run` does (the usual path's first job
        would have). With fewer than two there is nothing to save: nothing is done."""
        if len(wants) < 2:
            return
        answers = await self.run(_each, tuple((want.fn, want.args) for want in wants),
                                 priority=priority)
        for want, (ok, value) in zip(wants, answers, strict=True):
            if ok:
                want.keep(value)

    def _current(self) -> _Pool | None:
        """The pool now (it may have been shut down while a job waited)."""
        return self.pool

    def _free(self, priority: int) -> bool:
        """Whether a job of `priority` may go to the workers now."""
        return self._in_flight < self.count + (priority == PEOPLE)

    async def _turn(self, priority: int) -> None:
        """Wait until this job may go to the workers (strict priority, then first come)."""
        if not self._waiting and self._free(priority):
            self._in_flight += 1
            return
        loop = asyncio.get_running_loop()
        ticket: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), ticket))
        self._grant()
        try:
            await ticket  # `_grant` counts it in flight when it grants the turn
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._done()  # granted, then cancelled before it ran: pass the turn on
            raise

    def _done(self) -> None:
        self._in_flight = max(0, self._in_flight - 1)
        self._grant()

    def _grant(self) -> None:
        """Let the first waiting jobs go while they may."""
        waiting = self._waiting
        while waiting and self._free(waiting[0][0]):
            _, _, ticket = heapq.heappop(waiting)
            if not ticket.done() and not ticket.get_loop().is_closed():
                ticket.set_result(None)
                self._in_flight += 1

    def _release_waiting(self) -> None:
        """Let every waiting job go (to the new pool, or to a thread)."""
        self._in_flight = 0
        waiting = list(self._waiting)
        self._waiting.clear()
        for _, _, ticket in waiting:
            if not ticket.done() and not ticket.get_loop().is_closed():
                ticket.set_result(None)


@dataclass(frozen=True, slots=True)
class Want:
    """A job whose answer a cache keeps (`keep` stores it where the usual path looks), so
    that it can be asked for ahead, together with others (`Workers.warm`)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    keep: Callable[[Any], None]


def _each(calls: tuple[tuple[Callable[..., Any], tuple[Any, ...]], ...]
          ) -> list[tuple[bool, Any]]:
    """`warm`'s job in the worker: every call, each one's ``(ok, value)``."""
    answers: list[tuple[bool, Any]] = []
    for fn, args in calls:
        try:
            answers.append((True, fn(*args)))
        except Exception:
            answers.append((False, None))
    return answers


# ---- the pool: worker processes behind two pipes each ----------------------------------

_HEADER = struct.Struct("!i")
_LONG = struct.Struct("!Q")
"""`Connection.send_bytes`'s framing: the size (``!i``), or -1 and the size (``!Q``)."""


class _Worker:
    """One worker process: jobs go down `jobs`, answers come back on `answers`; `queue`:
    the futures of its jobs in flight, in the order it answers them."""

    def __init__(self, process: BaseProcess, jobs: Connection, answers: Connection) -> None:
        self.process = process
        self.jobs = jobs
        self.answers = answers
        self.fd = answers.fileno()
        os.set_blocking(self.fd, False)
        with contextlib.suppress(OSError, AttributeError):  # Linux: room for a whole picture
            fcntl.fcntl(self.fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        self.buffer = bytearray()
        self._chunk = memoryview(bytearray(PIPE_SIZE))
        """Read into (no buffer of the pipe's size allocated per read)."""
        self.queue: deque[asyncio.Future[Any]] = deque()
        self.since = 0.0
        """When the job at the head of `queue` started (``time.perf_counter``)."""

    @classmethod
    def start(cls, context: Any, settings: dict[str, Any]) -> _Worker:
        jobs_r, jobs_w = context.Pipe(duplex=False)
        answers_r, answers_w = context.Pipe(duplex=False)
        process = context.Process(target=_serve, name="tractor-offload", daemon=True,
                                  args=(jobs_r, answers_w, settings["cpus"],
                                        settings["nice"]))
        process.start()
        jobs_r.close()  # the worker has its own copies: its death closes the answers pipe
        answers_w.close()
        return cls(process, jobs_w, answers_r)

    def answers_ready(self) -> list[bytes] | None:
        """The answers that arrived complete (None: the pipe closed, the worker is gone)."""
        try:
            size = os.readv(self.fd, [self._chunk])
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not size:
            return None
        buffer = self.buffer
        buffer += self._chunk[:size]
        found: list[bytes] = []
        while len(buffer) >= _HEADER.size:
            (size,), header = _HEADER.unpack_from(buffer), _HEADER.size
            if size == -1:
                if len(buffer) < header + _LONG.size:
                    break
                (size,), header = _LONG.unpack_from(buffer, header), header + _LONG.size
            if len(buffer) < header + size:
                break
            found.append(bytes(buffer[header:header + size]))
            del buffer[:header + size]
        return found

    def close(self, *, kill: bool) -> None:
        """Close the pipes (`kill`: SIGKILL the process first). Never asks the process
        whether it is alive: that polls with a zero timeout, which never ends on a clock
        that stands still (see `_start`)."""
        if kill:
            with contextlib.suppress(OSError):
                self.process.kill()
        for conn in (self.jobs, self.answers):
            conn.close()


class _Pool:
    """The worker processes, read by the event loop itself (``add_reader``)."""

    def __init__(self, workers: list[_Worker], timeout: float) -> None:
        self.workers = workers
        self.timeout = timeout
        self.answered = False
        """A worker answered once (they are up: the timeout applies from now on)."""
        self.broken = False
        self.wakeups = 0
        """Times the loop was woken by answers (several answers may share one)."""
        self.answers = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchdog: asyncio.TimerHandle | None = None

    @property
    def _processes(self) -> dict[int | None, BaseProcess]:
        """The worker processes by pid (as ``ProcessPoolExecutor._processes``)."""
        return {worker.process.pid: worker.process for worker in self.workers}

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Send ``fn(*args)`` to the worker with the fewest jobs; its answer's future."""
        if self.broken:
            raise BrokenProcessPool("the pool is broken")
        loop = asyncio.get_running_loop()
        self._bind(loop)
        data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        worker = min(self.workers, key=lambda w: len(w.queue))
        future: asyncio.Future[Any] = loop.create_future()
        try:
            worker.jobs.send_bytes(data)
        except OSError:
            self._break(BrokenProcessPool("a worker died (its pipe is closed)"))
            raise BrokenProcessPool("a worker died (its pipe is closed)") from None
        if not worker.queue:
            worker.since = time.perf_counter()
        worker.queue.append(future)
        self._arm()
        return future

    def _bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the workers' answers on `loop` (the first, or a new, running loop)."""
        if self._loop is loop:
            return
        self._unbind()
        self._loop = loop
        for worker in self.workers:
            loop.add_reader(worker.fd, self._readable, worker)

    def _unbind(self) -> None:
        loop, self._loop = self._loop, None
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if loop is not None and not loop.is_closed():
            for worker in self.workers:
                loop.remove_reader(worker.fd)

    def _readable(self, worker: _Worker) -> None:
        """Deliver every answer that arrived, each to its job, in the worker's order."""
        self.wakeups += 1
        answers = worker.answers_ready()
        if answers is None:
            self._break(BrokenProcessPool(f"a worker died (pid {worker.process.pid})"))
            return
        self.answers += len(answers)
        for payload in answers:
            future = worker.queue.popleft()
            worker.since = time.perf_counter()
            self.answered = True
            try:
                ok, value = pickle.loads(payload)
            except Exception as error:  # an answer that does not unpickle here
                ok, value = False, error
            if future.done():  # its caller gave up (cancelled)
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        if answers:
            self._arm()

    def _arm(self) -> None:
        """One watchdog for the pool, while jobs are out on an answered pool."""
        busy = [w.since for w in self.workers if w.queue]
        if not busy:
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None
            return
        if self._watchdog is None and self.answered and self._loop is not None:
            delay = max(0.0, min(busy) + self.timeout - time.perf_counter())
            self._watchdog = self._loop.call_later(delay, self._check)

    def _check(self) -> None:
        self._watchdog = None
        if self.broken:
            return
        now = time.perf_counter()
        for worker in self.workers:
            if worker.queue and now - worker.since >= self.timeout:
                head = worker.queue.popleft()
                if not head.done():
                    head.set_exception(TimeoutError(f"no answer within {self.timeout:g} s"))
                self._break(BrokenProcessPool("a worker is stuck"))
                return
        self._arm()

    def _break(self, error: BrokenProcessPool) -> None:
        """Fail every job in flight with `error` and kill the workers (replaced by
        `_restart`, whose caller tries its job again)."""
        if not self.broken:
            self.close(error)

    def close(self, error: BrokenProcessPool) -> None:
        """Stop reading, kill the workers, fail the jobs still out with `error`."""
        self.broken = True
        self._unbind()
        for worker in self.workers:
            worker.close(kill=True)
            while worker.queue:
                future = worker.queue.popleft()
                if not future.done() and not future.get_loop().is_closed():
                    future.set_exception(error)


def _serve(jobs: Connection, answers: Connection, cpus: list[int] | None = None,
           nice: int = 10) -> None:
    """A worker process: run each job it is sent and send back ``(ok, value)``, until the
    bot closes its end of the pipe."""
    _warm(cpus, nice)
    while True:
        try:
            data = jobs.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            fn, args = pickle.loads(data)
            reply: tuple[bool, Any] = (True, fn(*args))
        except Exception as error:
            reply = (False, error)
        try:
            payload = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer or error that does not pickle
            payload = pickle.dumps((False, RuntimeError(f"{reply[1]!r}: {error}")))
        try:
            _send(answers, payload)
        except OSError:
            return


def _send(answers: Connection, payload: bytes) -> None:
    """`payload` framed as ``Connection.send_bytes`` frames it, in one write: that writes
    a large payload's size on its own first, which could wake the loop for nothing."""
    size = len(payload)
    header = _HEADER.pack(size) if size <= 0x7FFFFFFF else \
        _HEADER.pack(-1) + _LONG.pack(size)
    data = memoryview(header + payload)
    fd = answers.fileno()
    while data:
        data = data[os.write(fd, data):]


def _warm(cpus: list[int] | None = None, nice: int = 10) -> None:
    """Workers yield to the event loop's process (pictures can wait, a click cannot),
    leave Ctrl-C to it (a terminal signals the whole process group; the bot shuts the pool
    down), run on `cpus` if given and load the renderer once."""
    os.nice(nice)
    if cpus is not None:
        os.sched_setaffinity(0, cpus)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from bot import render  # noqa: F401
