"""``python -m bot.bench``: how many busy tables one bot process holds (issue 16).

One bot process on a simulated Discord (SimCord, in this process), N tables each with
``--humans`` simulated people (the rest computer players), all playing at once through
their DM panels: pass in the declaration window, pick cards in the selects and press
Bury / Play. Humans think ``--think`` seconds on average (uniform, 0 to twice that).

Reported (wall-clock, so run it on a quiet machine or pinned: ``taskset -c 0``):

* Play press → commit p50/p99: the Play button's interaction sent → the move committed;
* first reply p50/p99: any interaction sent → its acknowledgement (Discord's 3 s limit); a
  card pick's is the redrawn panel itself (UPDATE_MESSAGE), or the router's late deferral
  when the redraw had not begun within 0.25 s (bot/ui/components.py ``ANSWER_WITHIN``);
* event-loop lag p50/p99: a thread posts a callback every ``--lag-every`` seconds (0.1);
  how late it runs. Each sample wakes the loop from another thread, and that wakeup stays
  in "own" (about 0.1 ms of the loop's CPU each on a small VM: sampling every 20 ms, as
  this bench did before, was 5 ms of "own" per second whatever the load);
* CPU per hand (process CPU over settled hands) and the same outside the computers'
  thinking, image rendering and the simulated world itself; the engine's own ``apply`` per
  move, and the bot's own CPU per move ("own") as a multiple of it;
* each thread's CPU (``threads_cpu_s``: the loop, the database's, the worker pool's);
* counts per committed move: table loads (``reads``: from storage), match parses
  (``Match.from_dict``), saves, images rendered.
* the Discord traffic per committed move (``traffic``, `bot.bench_traffic`): each kind of
  HTTP call the bot makes (an answer by callback type, a DM or channel message sent or
  edited, an interaction's original response edited) with its payload's size, uploads and
  components; and the gateway events discord.py parsed (``gateway_per_move``).

``--floor`` runs a minimal discord.py bot doing only that traffic, a move at a time, under
the same accounting (`bot.bench_floor`): how low the own CPU per move can go with
discord.py. ``--attribute`` runs the bench twice, the second time with the loop's thread
profiled, and splits the own CPU per move by layer (`bot.bench_attribute`).

Everything is measured by wrapping functions in this process (nothing in the bot knows).
"Own" is the bot process's CPU less exactly these, each measured where it runs:

* ``think`` and ``render``: the computers' thinking and the pictures when they run in this
  process (``--workers 0``; with workers they are in other processes and not in it);
* ``discord_sim``, the simulated Discord: SimCord's HTTP routes (``router.dispatch``) and
  gateway (``FakeGateway.feed``), and its hooks on the event loop (`_Meter.loop_hooks`):
  its virtual clock standing in for ``time.monotonic``, the bookkeeping it adds to every
  ``call_soon``/``call_soon_threadsafe``/``call_later``/``call_at``/``create_task``/
  ``run_in_executor`` of the bot (ownership records, context copies, the pending list)
  and the wrapper it runs each such callback in. A real bot on a real loop pays none of
  that, so it is not the bot's; what a real loop does pay stays the bot's: the loop's own
  ``call_soon`` & co. inside each hook, one real ``time.monotonic`` per clock read, the
  callbacks themselves, and discord.py's parsing of every event SimCord feeds the bot;
* ``people_sim``, the bench itself: the simulated people's steps, its lag probe's thread
  and the probe's callbacks on the loop (the bench's threads count as a whole,
  `_bench_thread`);
* ``instrumentation``, the bench's own wrappers: each timed window reads a thread's CPU
  clock twice (a system call, about 1.7 µs on a small VM, half of each outside the window)
  and runs a little Python of its own; what one window of each kind leaves outside what it
  counts is measured before the run (`_Meter.calibrate`) and taken out once per window
  opened (about 110 windows per move). The bookkeeping around SimCord's loop hooks is timed
  with them.

Garbage collections are the bot process's own wherever they come due: their CPU is taken
out of every window they run in (`_Meter.time_collections`; ``cpu_s["gc"]`` reports it).
A collection walks the whole heap, and counting it in the window that happened to allocate
made a computer's ``apply`` (the yardstick) or the simulator's routes pay for it now and
then, the ratio swinging with it.

The simulator's garbage is kept from the bot's collector: SimCord's record of each callback
it tracks and the callback's handle refer to each other, a cycle per callback (25 a move)
that only a collection frees, and a collection's pause is charged to whatever allocates
when it comes, mostly the bot; the bench unlinks them as they run (`_Unlinked`). Two small
simulator costs not worth a wrapper stay in "own" (it errs against the bot): SimCord's
pass-through hook on ``ThreadPoolExecutor.submit`` (the database's jobs) and the loop's
side of the lag probe's wakeups. ``discord_py_parse`` (diagnostic): CPU of discord.py's
parser per event kind, SimCord's hooks inside included. The simulated Discord's own cost
is also kept out of the way where it would dominate: SimCord's pending-callback records
compare by identity while measuring (`_identity_records`).
The bench's sleeps (the people's thinking, the publisher's edit interval) are real timers
of the loop (`wall_sleep`), past SimCord's hook, which virtualises the loop's timers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import dataclasses
import gc
import itertools
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bench_attribute import profile_layers, profile_top
from bot.bench_traffic import Traffic

__all__ = ["BenchConfig", "main", "run_bench"]


@dataclass(slots=True)
class BenchConfig:
    tables: int = 10
    seconds: float = 30.0
    hands: int | None = None
    """Stop once this many hands were settled (over all tables), if sooner."""
    humans: int = 2
    think: float = 0.5
    computer: str = "ai"
    seed: int = 1
    workers: int = 0
    """Worker processes for pictures and computer players (0: threads)."""
    edit_interval: float = 1.0
    """`Config.edit_interval` while measuring (the production default coalesces edits)."""
    database: str | None = None
    loop_cpus: tuple[int, ...] | None = None
    """Pin the bot's process (the event loop and its threads) to these cores."""
    worker_cpus: tuple[int, ...] | None = None
    """Run the worker processes on these cores (default: inherited from the bot's)."""
    warmup: float = 0.0
    """Seconds the tables play before measuring starts (so that they are spread over the
    phases of a hand instead of all dealing at once)."""
    worker_nice: int = 10
    """How much lower the workers' priority is (production: 10)."""
    stacks: int = 8
    lag_every: float = 0.1
    """Seconds between two event-loop lag samples (`_LagProbe`)."""
    profile: bool = False
    """Profile the loop's thread while measuring (``profile_s``: seconds by layer,
    `bot.bench_attribute`)."""
    """Report the loop's `stacks` most frequent stacks while it lagged (0: none)."""


@dataclass(slots=True)
class _Press:
    token: str
    sent: float
    kind: str
    acked: float | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def _ms(values: list[float]) -> dict[str, float | int | None]:
    def r(x: float | None) -> float | None:
        return None if x is None else round(x * 1000, 1)
    return {"n": len(values), "p50": r(_pct(values, 50)), "p99": r(_pct(values, 99)),
            "max": r(max(values) if values else None)}


_DEPTH = threading.local()
"""Per thread: the wrappers of `_Meter` running (``sim``: the simulated world's key). The
bench's own threads (its clock, the lag probe) set ``sim`` for their whole life
(`_bench_thread`): their CPU is counted as a whole, so nothing in them is counted again."""


def _bench_thread() -> None:
    _DEPTH.sim = "bench"


class _Meter:
    """The wrappers: CPU of the computers, renders, SimCord's routes and ``apply``;
    counts of parses; acknowledgements and edits of interactions, by token."""

    TOKEN = re.compile(r"^/(?:interactions/\d+|webhooks/\d+)/([^/]+)/")
    CHANNEL = re.compile(r"^/channels/(\d+)/(?:messages/(\d+))?")

    def __init__(self) -> None:
        self.cpu: Counter[str] = Counter()
        self.counts: Counter[str] = Counter()
        self.presses: dict[str, _Press] = {}
        self.edits: dict[int, _Press] = {}
        """Select presses waiting for the edit of the (DM) message they were made on."""
        self.channel_events: dict[int, asyncio.Event] = {}
        self.restore: list[Callable[[], None]] = []
        self.hooks: list[str] = []
        """SimCord's loop hooks measured as the simulator's (`loop_hooks`)."""
        self.windows: Counter[str] = Counter()
        """Timed windows opened, by kind (``sim``, ``ours``, ``wrap``): see `leaks`."""
        self.leaks: dict[str, float] = {}
        """CPU seconds each kind of window costs outside what it counts (`calibrate`)."""
        self.traffic = Traffic()
        """The bot's HTTP calls by kind (counted inside the simulator's window)."""
        self._depth = _DEPTH

    def _patch(self, owner: Any, name: str, value: Any) -> None:
        original = vars(owner)[name]
        setattr(owner, name, value)
        self.restore.append(lambda: setattr(owner, name, original))

    def _wrap(self, function: Callable[..., Any], key: str, unless: str = "") -> Any:
        """Thread CPU spent in `function` (outermost calls only, none inside `unless`)."""
        depth, windows = self._depth, self.windows

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if getattr(depth, key, 0) or (unless and getattr(depth, unless, 0)):
                return function(*args, **kwargs)
            self.counts[key] += 1
            windows["wrap"] += 1
            setattr(depth, key, 1)
            collected = getattr(depth, "gc", 0.0)
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.cpu[key] += (time.thread_time() - start
                                  - (getattr(depth, "gc", 0.0) - collected))
                setattr(depth, key, 0)
        return wrapper

    def _simulated(self, function: Callable[..., Any], key: str) -> Any:
        """Thread CPU of the simulated world (SimCord's routes and gateway, the simulated
        people) into `key`, outermost calls only; discord.py's handling of what it feeds the
        bot (`_ours`) is taken back out: that is the bot's cost."""
        depth, windows = self._depth, self.windows

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if getattr(depth, "sim", None):
                return function(*args, **kwargs)
            windows["sim"] += 1
            depth.sim = key
            collected = getattr(depth, "gc", 0.0)
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.cpu[key] += (time.thread_time() - start
                                  - (getattr(depth, "gc", 0.0) - collected))
                depth.sim = None
        return wrapper

    def _ours(self, function: Callable[..., Any]) -> Any:
        depth, windows = self._depth, self.windows

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = getattr(depth, "sim", None)
            if not key:
                return function(*args, **kwargs)
            windows["ours"] += 1
            depth.sim = None
            collected = getattr(depth, "gc", 0.0)
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.cpu[key] -= (time.thread_time() - start
                                  - (getattr(depth, "gc", 0.0) - collected))
                depth.sim = key
        return wrapper

    def people(self, coroutine: Any) -> Any:
        """`coroutine` (a simulated person) with the CPU of each of its steps counted as
        the simulated world's."""
        return _Steps(coroutine, self._simulated(lambda f, *a: f(*a), "people"))

    def timed_function(self, module: str, name: str, key: str) -> None:
        """Wrap a function everywhere the bot imported it by name."""
        original = getattr(sys.modules[module], name)
        wrapper = self._wrap(original, key)
        for loaded in list(sys.modules.values()):
            if (getattr(loaded, "__name__", "").split(".")[0] == "bot"
                    and vars(loaded).get(name) is original):
                self._patch(loaded, name, wrapper)

    def install(self, state: Any, *, in_process: bool) -> None:
        """Wrap what runs in this process (`in_process`: computers and pictures too);
        `state`: the bot's discord.py connection state (its event parsers)."""
        import simcord.http.router as router
        from simcord.gateway import FakeGateway

        import bot.images
        import bot.players
        from engine.game import Match

        if in_process:
            self.timed_function(bot.players.__name__, "computer_action", "think")
            for name in ("table_png", "hand_png", "summary_png"):
                self.timed_function(bot.images.__name__, name, "render")
        from_dict = vars(Match)["from_dict"].__func__
        self._patch(Match, "from_dict", classmethod(self._wrap(from_dict, "parse", "think")))
        self._patch(Match, "apply", self._wrap(vars(Match)["apply"], "apply", "think"))
        self.time_collections()
        original = router.dispatch

        def tallied(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            try:
                return original(backend, method, path, **kwargs)
            finally:
                self._tally(backend, method, path, kwargs)

        dispatch = self._simulated(tallied, "discord")

        def routed(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            try:
                return dispatch(backend, method, path, **kwargs)
            finally:
                self._observe(method, path, kwargs.get("json"))

        self._patch(router, "dispatch", routed)
        self._patch(FakeGateway, "feed", self._simulated(vars(FakeGateway)["feed"], "discord"))
        parsers = state.parsers
        saved = dict(parsers)
        parsers.update({event: self._ours(self._wrap(parse, f"parse {event}"))
                        for event, parse in saved.items()})
        self.restore.append(lambda: parsers.update(saved))
        self.hooks = self.loop_hooks(asyncio.get_running_loop())

    LOOP_HOOKS = (("call_soon", "orig_call_soon"),
                  ("call_soon_threadsafe", "orig_call_soon_threadsafe"),
                  ("call_later", "orig_call_later"), ("call_at", "orig_call_at"),
                  ("create_task", "orig_create_task"),
                  ("run_in_executor", "orig_run_in_executor"))
    """SimCord's hooks on the loop (instance attributes it sets when the bot attaches), and
    the name, in each hook's closure, of the loop's own method it wraps."""

    def loop_hooks(self, loop: asyncio.AbstractEventLoop) -> list[str]:
        """Count SimCord's hooks on the event loop as the simulated Discord's (``discord``):
        its clock (``time.monotonic``, virtual time), its scheduling hooks (the bookkeeping
        around every ``call_soon``, timer, task and executor job of the bot) and the wrapper
        it runs each scheduled callback in. What a real loop pays stays the bot's: the
        loop's own ``call_soon`` & co. and one real ``time.monotonic`` per clock read are
        charged back (`_ours`), and so is every callback the wrapper runs unless it is
        SimCord's own. Returns the hooks found (a SimCord without them: none)."""
        from simcord import _dpy_internals

        found: list[str] = []
        clock = time.monotonic
        if _from_simcord(clock):
            real = _dpy_internals._REAL_MONOTONIC
            simulated = self._simulated(clock, "discord")

            def monotonic() -> float:
                real()  # what the bot's clock costs on a real loop
                return float(simulated())

            self._patch(time, "monotonic", monotonic)
            found.append("monotonic")
        for name, inner in self.LOOP_HOOKS:
            hook = vars(loop).get(name)
            cell = None if hook is None else _cell(hook, inner)
            if hook is None or cell is None or not _from_simcord(hook):
                continue
            original = cell.cell_contents
            cell.cell_contents = self._ours(original)
            self.restore.append(lambda cell=cell, original=original: setattr(
                cell, "cell_contents", original))
            self._patch(loop, name, self._hooked(hook))
            found.append(name)
        return found

    def _hooked(self, hook: Callable[..., Any]) -> Callable[..., Any]:
        """`hook` timed as the simulator's, with the bench's own bookkeeping around it; the
        wrapper SimCord runs the callback in (``invoke``) too, the bot's callback inside it
        charged back. SimCord's record of the callback and its handle refer to each other
        (the handle runs ``invoke``, whose closure holds the record, which holds the
        handle): `_Unlinked` breaks that cycle as the callback runs, so the simulator leaves
        no garbage for the bot's collector to find (a real loop makes none)."""
        def hooked(*args: Any, **kwargs: Any) -> Any:
            handle = hook(*args, **kwargs)
            invoke = getattr(handle, "_callback", None)
            callback = getattr(invoke, "__simcord_original_callback__", None)
            if callback is not None:
                cell = _cell(invoke, "callback")
                if cell is not None and not _from_simcord(callback):
                    cell.cell_contents = self._ours(callback)
                handle._callback = _Unlinked(handle, self._simulated(invoke, "discord"),
                                             callback)
            return handle
        return self._simulated(hooked, "discord")

    def time_collections(self) -> None:
        """Keep the garbage collector's CPU out of every window: a collection runs in
        whatever allocates when it comes due (SimCord's routes, a computer's ``apply``),
        but what it walks is the whole process's heap, so it is never the simulator's nor
        the engine's; it stays in "own" (``cpu["gc"]``, a part of it, for the report).
        Each thread's collections add up in its `_DEPTH` (``gc``), which the windows take
        out of what they count."""
        depth = self._depth

        def clock(phase: str, info: dict[str, Any]) -> None:
            now = time.thread_time()
            if phase == "start":
                depth.gc_start = now
            elif getattr(depth, "gc_start", None) is not None:
                spent = now - depth.gc_start
                depth.gc_start = None
                depth.gc = getattr(depth, "gc", 0.0) + spent
                self.cpu["gc"] += spent

        gc.callbacks.append(clock)
        self.restore.append(lambda: gc.callbacks.remove(clock))

    def calibrate(self, rounds: int = 20_000) -> dict[str, float]:
        """Measure `leaks`: what one timed window of each kind costs this process outside
        the CPU it counts (its clock reads are system calls, about half of each outside the
        window, and the wrapper's own Python). The bench's instruments are not the bot:
        ``own`` leaves out ``windows[kind] * leaks[kind]`` (`instrumentation`)."""
        probe = _Meter()

        def noop() -> None:
            return None

        def spent(function: Callable[[], None]) -> float:
            probe.cpu.clear()
            start = time.process_time()
            for _ in range(rounds):
                function()
            return (time.process_time() - start - sum(probe.cpu.values())) / rounds

        bare = spent(noop)
        sim = spent(probe._simulated(noop, "calibrate")) - bare
        ours = spent(probe._simulated(probe._ours(noop), "calibrate")) - bare - sim
        wrap = spent(probe._wrap(noop, "calibrate")) - bare
        self.leaks = {"sim": max(sim, 0.0), "ours": max(ours, 0.0), "wrap": max(wrap, 0.0)}
        return self.leaks

    def instrumentation(self) -> float:
        """CPU seconds the windows opened so far cost outside what they counted."""
        return sum(n * self.leaks.get(kind, 0.0) for kind, n in self.windows.items())

    def _tally(self, backend: Any, method: str, path: str, kwargs: dict[str, Any]) -> None:
        """Count one of the bot's calls in `traffic` (its channel's type: DM or not)."""
        found = self.CHANNEL.match(path)
        channel = None if found is None else backend.channels.get(int(found.group(1)))
        self.traffic.note(method, path, kwargs.get("json"), kwargs.get("files"),
                          getattr(channel, "type", None))

    def _observe(self, method: str, path: str, payload: Any = None) -> None:
        """A call the bot made: a press is acknowledged by its callback, and done with it
        or its first edit; a card pick (``select``) when its panel is redrawn: answered
        with it (an UPDATE_MESSAGE callback, type 7) or edited after a deferral."""
        now = time.perf_counter()
        found = self.TOKEN.match(path)
        if found is not None:
            press = self.presses.get(found.group(1))
            if press is not None:
                callback = path.endswith("/callback")
                if press.acked is None and callback:
                    press.acked = now
                if (press.kind != "select" or not callback
                        or (isinstance(payload, dict) and payload.get("type") == 7)):
                    press.done.set()
            return
        found = self.CHANNEL.match(path)
        if found is not None and method == "PATCH" and found.group(2):
            waiting = self.edits.pop(int(found.group(2)), None)
            if waiting is not None:
                waiting.done.set()
        if found is not None and method in ("POST", "PATCH"):
            event = self.channel_events.get(int(found.group(1)))
            if event is not None:
                event.set()

    def uninstall(self) -> None:
        for undo in reversed(self.restore):
            undo()
        self.restore.clear()


def _from_simcord(fn: Any) -> bool:
    """Whether `fn` (a function or bound method) is SimCord's code."""
    module = getattr(getattr(fn, "__func__", fn), "__module__", None)
    return isinstance(module, str) and module.split(".")[0] == "simcord"


class _Unlinked:
    """A handle's callback that, as it runs, puts the bot's own callback back on the
    handle, so the handle no longer refers to SimCord's wrapper (nor, through it, to its
    record of the handle): a cycle less per callback (a cancelled handle drops it too)."""

    __slots__ = ("callback", "handle", "run")

    def __init__(self, handle: Any, run: Callable[..., Any], callback: Any) -> None:
        self.handle, self.run, self.callback = handle, run, callback

    def __call__(self, *args: Any) -> Any:
        handle, self.handle = self.handle, None
        if handle is not None:
            handle._callback = self.callback
        return self.run(*args)


def _cell(fn: Any, name: str) -> Any | None:
    """The closure cell of `fn` holding its free variable `name`, if any."""
    code = getattr(fn, "__code__", None)
    closure = getattr(fn, "__closure__", None)
    if code is None or not closure or name not in code.co_freevars:
        return None
    return closure[code.co_freevars.index(name)]


class _Steps(Coroutine[Any, Any, Any]):
    """A coroutine whose every step runs through `step(method, *args)`."""

    def __init__(self, coroutine: Coroutine[Any, Any, Any],
                 step: Callable[..., Any]) -> None:
        self._coroutine, self._step = coroutine, step

    def send(self, value: Any) -> Any:
        return self._step(self._coroutine.send, value)

    def throw(self, *args: Any) -> Any:
        return self._step(self._coroutine.throw, *args)

    def close(self) -> None:
        self._coroutine.close()

    def __await__(self) -> Any:
        return self._coroutine.__await__()




class _WallAsyncio:
    """`asyncio` for the publisher and the late deferrals (bot/ui/edits.py) while
    measuring: their sleeps (the edit interval, a click's answer time) in real time, since
    SimCord's timers only move when a test advances them."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        if delay > 0:
            await wall_sleep(delay)
        else:
            await asyncio.sleep(0)
        return result


def wall_sleep(seconds: float) -> asyncio.Future[None]:
    """Sleep in real time: a timer of the loop itself (``BaseEventLoop.call_at``, on its
    real clock), not through SimCord's hook, which makes every timer virtual. The bot's own
    sleeps in production are such timers too; a thread waking the loop instead (as this
    bench did) costs the loop a wakeup from another thread each (~0.1 ms on a small VM)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()
    when = _real_monotonic() + max(0.0, seconds)
    asyncio.BaseEventLoop.call_at(loop, when, _wake, future)
    return future


def _real_monotonic() -> float:
    """The loop's real clock (``time.monotonic`` before SimCord replaced it)."""
    try:
        from simcord import _dpy_internals
    except ImportError:  # pragma: no cover - SimCord is what the bench runs on
        return time.monotonic()
    return float(_dpy_internals._REAL_MONOTONIC())


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class _GcProbe:
    """Garbage-collector pauses (``gc.callbacks``) by generation, in the loop's process."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = defaultdict(list)
        self._start = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._start)

    def __enter__(self) -> _GcProbe:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def report(self) -> dict[str, dict[str, float | int | None]]:
        return {f"gen{gen}": {**_ms(pauses), "total": round(sum(pauses) * 1000, 1)}
                for gen, pauses in sorted(self.pauses.items())}


class _LagProbe:
    """Event-loop lag: a thread posts a callback every `every` seconds and notes how late it
    runs. While one is later than `threshold`, the thread samples the loop thread's stack
    every `sample` seconds: `stacks` counts what the loop was busy with (one sample ≈
    `sample` seconds of the loop held up)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, every: float = 0.1, *,
                 threshold: float = 0.02, sample: float = 0.005) -> None:
        self.loop, self.every = loop, every
        self.threshold, self.sample = threshold, sample
        self.lags: list[float] = []
        self.stacks: Counter[tuple[str, ...]] = Counter()
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="bench-lag")
        self.thread_cpu = self.loop_cpu = 0.0
        """CPU of the probe's thread, and of its callbacks on the loop."""

    @property
    def cpu(self) -> float:
        """The probe's CPU (the bench's, counted with the people)."""
        return self.thread_cpu + self.loop_cpu

    def _run(self) -> None:
        _bench_thread()
        try:
            self._probe()
        finally:
            self.thread_cpu = time.thread_time()

    def _probe(self) -> None:
        while not self._stop.wait(self.every):
            posted = time.perf_counter()
            ran = threading.Event()

            def note(p: float = posted, ran: threading.Event = ran) -> None:
                start = time.thread_time()
                self.lags.append(time.perf_counter() - p)
                ran.set()
                self.loop_cpu += time.thread_time() - start  # on the loop: the probe's
            try:
                self.loop.call_soon_threadsafe(note)
            except RuntimeError:
                return
            if ran.wait(self.threshold):
                continue
            while not ran.wait(self.sample) and not self._stop.is_set():
                frame = sys._current_frames().get(self._loop_thread)
                if frame is not None:
                    self.stacks[_signature(frame)] += 1

    def __enter__(self) -> _LagProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


_ROOT = str(Path(__file__).resolve().parent.parent)


def _signature(frame: Any, depth: int = 6) -> tuple[str, ...]:
    """The innermost frame and the innermost `depth` frames of the project (bot/, engine/)
    under it, as ``path:line function`` (what the loop thread is running)."""
    import traceback
    frames = traceback.extract_stack(frame)
    ours = [f for f in frames if f.filename.startswith(_ROOT) and "/bench.py" not in
            f.filename]
    chosen = ours[-depth:]
    if frames and (not chosen or frames[-1] is not chosen[-1]):
        chosen.append(frames[-1])

    def name(f: traceback.FrameSummary) -> str:
        path = f.filename[len(_ROOT) + 1:] if f.filename.startswith(_ROOT) else \
            "/".join(f.filename.split("/")[-2:])
        return f"{path}:{f.lineno} {f.name}"
    return tuple(name(f) for f in chosen)


# ---- the simulated world --------------------------------------------------------------------

def _components(message: Any) -> list[Any]:
    out: list[Any] = []
    for row in message.components:
        out.extend(getattr(row, "children", [row]))
    return out


def _verb(item: Any) -> tuple[str, int]:
    parts = (getattr(item, "custom_id", None) or "").split(":")
    if len(parts) < 5 or parts[0] != "tr":
        return "", -1
    return parts[4], int(parts[3])


def _find(message: Any, verb: str) -> Any | None:
    return next((c for c in _components(message) if _verb(c)[0] == verb), None)


def click(meter: _Meter, actor: Any, message: Any, custom_id: str, kind: str,
          values: list[str] | None = None, *, guild: Any = None) -> _Press:
    """`actor` (a SimCord member in `guild`, or a user in a DM) uses the component
    `custom_id` of `message` (a select when `values` are given): the interaction is fed to
    the bot; the returned press is done when the bot answered it (`_Meter._observe`)."""
    from simcord import interactions
    from simcord.actors import ChannelHandle, _visible_message
    from simcord.backend import serializers
    from simcord.enums import ComponentType, InteractionType

    env = actor._env
    backend = env.backend
    stored = _visible_message(actor, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    if values is not None:
        data.update(component_type=ComponentType.STRING_SELECT, values=values)
    channel = ChannelHandle(env, guild, backend.get_channel(stored.channel_id))
    record, payload = interactions.base_payload(
        backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=channel.id,
        guild_id=None if guild is None else guild.id, user_id=actor.id, data=data)
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    press = _Press(record.token, time.perf_counter(), kind)
    meter.presses[record.token] = press
    if kind == "select":
        meter.edits[stored.id] = press
    backend.emit("INTERACTION_CREATE", payload)
    return press


class _Human:
    """One simulated person at one table, playing through the DM panel."""

    def __init__(self, bench: _Bench, table_id: int, actor: Any, seat: int,
                 channel: Any) -> None:
        self.bench, self.table_id, self.actor, self.seat = bench, table_id, actor, seat
        self.channel = channel
        self.rng = random.Random(bench.config.seed * 1_000_003 + table_id * 4 + seat)

    def panel(self) -> Any | None:
        for message in reversed(self.actor.user.dm_channel.history()):
            if message.components:
                return message
        return None

    async def send(self, message: Any, custom_id: str, kind: str,
                   values: list[str] | None = None, *, public: bool = False) -> _Press:
        return click(self.bench.meter, self.actor if public else self.actor.user, message,
                     custom_id, kind, values, guild=self.actor.guild if public else None)

    async def done(self, press: _Press) -> None:
        await press.done.wait()
        if press.acked is not None:
            self.bench.acks.append(press.acked - press.sent)
        self.bench.meter.presses.pop(press.token, None)

    async def ready(self, step: int) -> None:
        """Press Ready on the table message (the next deal waits for everyone)."""
        posted = self.bench.meter.channel_events.setdefault(self.channel.id, asyncio.Event())
        while True:  # the summary with the button may not be posted yet (edits coalesce)
            table = next((m for m in reversed(self.channel.history())
                          if _find(m, "ready") is not None), None)
            button = None if table is None else _find(table, "ready")
            if button is not None:
                break
            if self.bench.stopping or self.bench.docs[self.table_id].step != step:
                return
            posted.clear()
            await posted.wait()
        await self.done(await self.send(table, button.custom_id, "ready", public=True))
        await self.bench.changed(self.table_id, step, ready=self.seat)

    async def panel_at(self, step: int) -> Any:
        """Wait until the DM panel shows `step`."""
        event = self.bench.meter.channel_events.setdefault(
            self.actor.user.dm_channel.id, asyncio.Event())
        while not self.bench.stopping:
            panel = self.panel()
            if panel is not None and any(_verb(c)[1] == step for c in _components(panel)):
                return panel
            event.clear()
            await event.wait()
        return None

    async def run(self) -> None:
        from engine.game import Phase

        bench = self.bench
        while not bench.stopping:
            doc = bench.docs[self.table_id]
            match = doc.get_match()
            step = doc.step
            if (match is not None and match.phase is Phase.BETWEEN_HANDS
                    and self.seat in getattr(doc, "unready", ())):
                await self.ready(step)
                continue
            if match is None or self.seat not in _to_act(match):
                await bench.changed(self.table_id, step)
                continue
            panel = await self.panel_at(step)
            if panel is None:
                return
            await wall_sleep(self.rng.uniform(0, 2 * bench.config.think))
            if bench.stopping or bench.docs[self.table_id].step != step:
                continue
            phase = match.phase
            if phase is Phase.DECLARING:
                button = _find(panel, "pass")
                if button is not None:
                    await self.done(await self.send(panel, button.custom_id, "pass"))
                    await bench.changed(self.table_id, step, seat_passed=self.seat)
                continue
            if phase is Phase.BURYING:
                remaining = 8
                for select in [c for c in _components(panel) if _verb(c)[0] == "sel"]:
                    take = [o.value for o in select.options][:remaining]
                    if not take:
                        continue
                    await self.done(await self.send(self.panel(), select.custom_id, "select",
                                                    take))
                    remaining -= len(take)
                    if remaining == 0:
                        break
                verb = "bury"
            else:
                quick = _find(panel, "quick")
                if quick is None:
                    select = next(c for c in _components(panel) if _verb(c)[0] == "sel")
                    chosen, custom_id = [select.options[0].value], select.custom_id
                else:
                    chosen, custom_id = [quick.options[0].value], quick.custom_id
                await self.done(await self.send(panel, custom_id, "select", chosen))
                verb = "play"
            panel = self.panel()
            button = None if panel is None else _find(panel, verb)
            if button is None or button.disabled:
                bench.failures["no " + verb] += 1
                await bench.changed(self.table_id, step)
                continue
            press = await self.send(panel, button.custom_id, verb)
            committed = await bench.changed(self.table_id, step)
            if verb == "play" and committed is not None:
                bench.commits.append(committed - press.sent)
            await self.done(press)


def _to_act(match: Any) -> list[int]:
    from bot.table import seats_to_act
    return seats_to_act(match)


class _Bench:
    def __init__(self, config: BenchConfig, env: Any) -> None:
        self.config, self.env = config, env
        self.meter = _Meter()
        self.docs: dict[int, Any] = {}
        self.events: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.commit_times: dict[int, float] = {}
        self.passes: dict[int, set[int]] = defaultdict(set)
        self.commits: list[float] = []
        self.acks: list[float] = []
        self.moves = 0
        self.hands = 0
        self.failures: Counter[str] = Counter()
        self.stopping = False
        self.autopilot: list[int] = []
        """Tables whose creator's seat the computer plays (``humans=0``)."""

    def hook(self, service: Any) -> Callable[[], None]:
        """Watch every commit (the service's `_after_commit`), and arm no timer but
        immediate ones (the next hand): the simulated people always answer, and SimCord's
        timers are virtual."""
        original = service._after_commit
        timers = service.timers
        arm = timers.arm

        def arm_now(table_id: int, deadline: float | None, step: int) -> None:
            if deadline is None or deadline - timers.clock() <= 0:
                arm(table_id, deadline, step)

        timers.arm = arm_now

        def after_commit(tx: Any) -> None:
            from engine.events import HandSettled
            self.docs[tx.table_id] = tx.doc
            self.commit_times[tx.table_id] = time.perf_counter()
            self.moves += len(tx.actions)
            self.hands += sum(isinstance(e, HandSettled) for e in tx.events)
            for action in tx.actions:
                if action.action.get("type") == "pass":
                    self.passes[tx.table_id].add(int(action.action.get("seat", -1)))
            self.events[tx.table_id].set()
            if self.config.hands is not None and self.hands >= self.config.hands:
                self.stop()
            original(tx)

        service._after_commit = after_commit

        def unhook() -> None:
            del service._after_commit
            del timers.arm
        return unhook

    async def changed(self, table_id: int, step: int, *, seat_passed: int | None = None,
                      ready: int | None = None) -> float | None:
        """Wait for the table to move past `step` (or for `seat_passed`'s pass to be in);
        the time of the commit that did it."""
        event = self.events[table_id]
        while not self.stopping:
            doc = self.docs[table_id]
            if doc.step != step or (seat_passed is not None
                                    and seat_passed in self.passes[table_id]) or (
                    ready is not None and ready not in getattr(doc, "unready", ())):
                self.passes[table_id].discard(seat_passed if seat_passed is not None else -9)
                return self.commit_times.get(table_id)
            event.clear()
            await event.wait()
        return None

    def stop(self) -> None:
        self.stopping = True
        for event in [*self.events.values(), *self.meter.channel_events.values()]:
            event.set()


async def _setup(env: Any, bench: _Bench, humans: int) -> list[_Human]:
    bot = env.bot
    guild = env.create_guild(name="Bench")
    await bot.store.set_guild_settings(guild.id, table_options={
        "declare_window_s": 120, "turn_timer_s": 0})
    people: list[_Human] = []
    for index in range(bench.config.tables):
        channel = guild.create_text_channel(f"table-{index}")
        users = [guild.add_member(env.create_user(f"p{index}-{n}"))
                 for n in range(max(humans, 1))]
        await users[0].slash(channel, "tractor new")
        stored = await bot.store.table_in_channel(channel.id)
        assert stored is not None, "no table opened"

        def table_message(channel: Any = channel) -> Any:
            for message in reversed(channel.history()):
                if _find(message, "join") or _find(message, "myhand"):
                    return message
            raise RuntimeError("no table message")

        for user in users[1:]:
            await user.click(table_message(), label="Join")
        for _ in range(4 - len(users)):
            await users[0].click(table_message(), label="Add bot")
        await users[0].click(table_message(), label="Start")
        loaded = await bot.service.load(stored.id)
        doc = loaded[1]
        bench.docs.setdefault(stored.id, doc)
        if humans == 0:
            bench.autopilot.append(stored.id)
            continue
        for user in users:
            seat = doc.seat_of(user.id)
            assert seat is not None
            people.append(_Human(bench, stored.id, user, seat, channel))
    return people


def _identity_records() -> Callable[[], None]:
    """SimCord removes each finished callback's record from a list of all pending ones
    (``list.remove``), comparing them with a generated dataclass ``__eq__``: with a few
    thousand pending timers (200 tables) that was half the loop's CPU, none of it the bot's.
    Records are distinct objects, so identity is what ``remove`` means: compare by it while
    measuring. Returns the undo."""
    from simcord import _runtime

    record = _runtime._CallbackRecord
    original = record.__eq__
    record.__eq__ = object.__eq__  # type: ignore[method-assign,assignment]

    def undo() -> None:
        record.__eq__ = original  # type: ignore[method-assign]
    return undo


async def run_bench(config: BenchConfig) -> dict[str, Any]:
    """Run one bench and return its report (see the module docstring)."""
    import simcord

    from bot import create_bot, offload
    from bot.config import Config

    if config.loop_cpus is not None:
        pin_process(config.loop_cpus)
    workdir = None
    if config.database is None:
        workdir = tempfile.TemporaryDirectory(prefix="tractor-bench-")
        database = str(Path(workdir.name) / "bench.sqlite3")
    else:
        database = config.database
    undo = _identity_records()
    bot = create_bot(database, config=Config(
        action_delay=0.0, edit_interval=0.0, hand_pause=0.0, start_delay=0.0,
        computer_player=config.computer, seed=config.seed, restart_grace=15.0,
        sync_commands=True, workers=config.workers))
    try:
        async with simcord.run(bot, settle_timeout=60.0) as env:
            if config.workers and (config.worker_cpus is not None or config.worker_nice != 10):
                try:
                    offload.configure(config.workers, cpus=config.worker_cpus,
                                      nice=config.worker_nice)
                except TypeError:  # an older bot (before/after figures): pin them from here
                    await offload.run(os.getpid)  # the pool's processes exist from now on
                    _pin_workers(config.worker_cpus, config.worker_nice)
            bench = _Bench(config, env)
            unhook = bench.hook(bot.service)
            try:
                people = await _setup(env, bench, config.humans)
                report = await _measure(bench, bot, people)
            finally:
                unhook()
            await _quiesce(bot)
            return report
    finally:
        undo()
        if workdir is not None:
            workdir.cleanup()


def pin_process(cpus: tuple[int, ...]) -> None:
    """Pin every thread of this process to `cpus` (threads started later inherit it; on
    Linux ``sched_setaffinity(0)`` only pins the calling thread)."""
    tasks = Path("/proc/self/task")
    for tid in ([int(p.name) for p in tasks.iterdir()] if tasks.is_dir() else [0]):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(tid, cpus)


async def _quiesce(bot: Any) -> None:
    """Let the work in flight finish, start no more computer turns, then close."""
    service = bot.service
    service._closed = True
    while service._tasks:
        await asyncio.gather(*list(service._tasks), return_exceptions=True)
    await bot.publisher.idle()
    await bot.close_store()


class _Window:
    """One measured window of a bench: entered, it clears the meter's sums and starts the
    lag and collector probes; `close` (once the simulated people are gathered) takes the
    process's CPU, wall time, instrumentation and threads' CPU; `accounting` is the part
    of the report every bench shares ("own", the ratio to ``apply``, the traffic)."""

    def __init__(self, meter: _Meter, loop: asyncio.AbstractEventLoop, lag_every: float,
                 stacks: int, *, profile: bool = False) -> None:
        self.meter, self.stacks = meter, stacks
        self.profiler = cProfile.Profile() if profile else None
        self.probe = _LagProbe(loop, lag_every)
        self.collector = _GcProbe()
        self.wall = self.cpu = self.instruments = 0.0
        self.threads: dict[str, float] = {}

    def __enter__(self) -> _Window:
        meter = self.meter
        for kept in (meter.cpu, meter.counts, meter.windows, meter.traffic):
            kept.clear()
        self._threads0 = _threads_cpu()
        self._wall0, self._cpu0 = time.perf_counter(), time.process_time()
        self.probe.__enter__()
        self.collector.__enter__()
        if self.profiler is not None:
            self.profiler.enable()
        return self

    def close(self) -> None:
        if self.profiler is not None:
            self.profiler.disable()
        self.wall = time.perf_counter() - self._wall0
        self.cpu = time.process_time() - self._cpu0
        self.instruments = self.meter.instrumentation()
        threads = _threads_cpu()
        self.threads = {name: round(value - self._threads0.get(name, 0.0), 3)
                        for name, value in sorted(threads.items())}

    def __exit__(self, *exc: object) -> None:
        self.collector.__exit__(*exc)
        self.probe.__exit__(*exc)
        self.meter.cpu["people"] += self.probe.cpu

    @property
    def own(self) -> float:
        """The process's CPU less the computers', the pictures', the simulated world's and
        the instruments' (see the module docstring)."""
        cpu = self.meter.cpu
        return (self.cpu - cpu["think"] - cpu["render"] - cpu["discord"] - cpu["people"]
                - self.instruments)

    def accounting(self, moves: int) -> dict[str, Any]:
        """The shared figures of the report, per committed (or floor) move."""
        meter = self.meter
        apply_each = None if not moves else meter.cpu["apply"] / moves
        own_each = None if not moves else self.own / moves
        profiled = {} if self.profiler is None else {
            "profile_s": profile_layers(self.profiler),
            "profile_top": profile_top(self.profiler)}
        return {
            **profiled,
            "seconds": round(self.wall, 2),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "cpus": (sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                     else None),
            "moves": moves, "moves_per_second": round(moves / self.wall, 1),
            "loop_lag_ms": _ms(self.probe.lags),
            "own_cpu_per_move_ms": None if own_each is None else round(own_each * 1000, 3),
            "apply_per_move_ms": None if apply_each is None else round(apply_each * 1000, 3),
            "own_over_apply": (None if not apply_each or own_each is None
                               else round(own_each / apply_each, 1)),
            "simulator_loop_hooks": meter.hooks,
            "traffic": meter.traffic.report(moves),
            "gateway_per_move": {key.split(" ", 1)[1]: _per(meter.counts[key], moves)
                                 for key in sorted(meter.counts) if key.startswith("parse ")},
            "discord_py_parse": {key.split(" ", 1)[1]: {
                "n": meter.counts[key], "ms_each": round(cpu / meter.counts[key] * 1000, 3)}
                for key, cpu in sorted(meter.cpu.items())
                if key.startswith("parse ") and meter.counts[key]},
            "threads_cpu_s": self.threads,
            "gc_pauses_ms": self.collector.report(),
            "lag_stacks": [{"ms": round(n * self.probe.sample * 1000), "stack": list(stack)}
                           for stack, n in self.probe.stacks.most_common(self.stacks)],
        }


async def _measure(bench: _Bench, bot: Any, people: list[_Human]) -> dict[str, Any]:
    config = bench.config
    meter = bench.meter
    repository = bot.service.repository
    from bot import offload
    meter.calibrate()
    meter.install(bot._connection, in_process=offload.workers() == 0)
    import bot.ui.edits as edits
    import bot.ui.publish as publish
    for module in (publish, edits):  # the publisher's edit interval, late deferrals
        meter._patch(module, "asyncio", _WallAsyncio())
    bot.publisher.config = bot.publisher.config.with_changes(
        edit_interval=config.edit_interval)
    loop = asyncio.get_running_loop()

    def autopilot(tx: Any) -> None:
        tx.doc.seat(0).autopilot = True

    tasks: list[asyncio.Future[None]] = []
    try:
        for table_id in bench.autopilot:  # four computers: the creator's seat too
            await bot.service.transact(table_id, autopilot)
        tasks = [asyncio.ensure_future(meter.people(person.run())) for person in people]
        if config.warmup > 0:  # the tables spread over the phases of a hand first
            await wall_sleep(config.warmup)
        stats_before = Counter(repository.stats)
        bench.moves = bench.hands = 0
        for kept in (bench.commits, bench.acks, bench.failures):
            kept.clear()
        with _Window(meter, loop, config.lag_every, config.stacks,
                     profile=config.profile) as window:
            drawn0 = _drawn()
            workers0 = _workers_cpu()
            ending = wall_sleep(config.seconds)
            ending.add_done_callback(lambda _: bench.stop())
            stopper = asyncio.ensure_future(_wait_stop(bench))
            await stopper
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            window.close()
            workers_cpu = _workers_cpu() - workers0
            if offload.workers():
                meter.counts["render"] = _drawn() - drawn0
    finally:
        for task in tasks:
            task.cancel()
        meter.uninstall()
    stats = Counter(repository.stats)
    stats.subtract(stats_before)
    moves, hands = bench.moves, bench.hands
    own, loop_cpu = window.own, window.cpu
    cpu = loop_cpu + workers_cpu
    shared = window.accounting(moves)
    return {
        "tables": config.tables, "humans": config.humans, "workers": config.workers,
        "worker_nice": config.worker_nice, "computer": config.computer,
        "edit_interval": config.edit_interval, "think": config.think,
        "lag_every": config.lag_every,
        "warmup": config.warmup,
        **shared,
        "worker_cpus": _workers_affinity(),
        "hands": hands,
        "play_to_commit_ms": _ms(bench.commits),
        "first_reply_ms": _ms(bench.acks),
        "cpu_s": {"total": round(cpu, 3), "loop_process": round(loop_cpu, 3),
                  "think": round(meter.cpu["think"], 3),
                  "render": round(meter.cpu["render"], 3),
                  "workers": round(workers_cpu, 3),
                  "discord_sim": round(meter.cpu["discord"], 3),
                  "people_sim": round(meter.cpu["people"], 3),
                  "apply": round(meter.cpu["apply"], 3),
                  "instrumentation": round(window.instruments, 3),
                  "gc": round(meter.cpu["gc"], 3)},
        "cpu_per_hand_s": None if not hands else round(cpu / hands, 3),
        "own_cpu_per_hand_s": None if not hands else round(own / hands, 3),
        "per_move": {key: None if not moves else round(value / moves, 2) for key, value in {
            "loads": stats["load"] + stats["hit"], "reads": stats["load"],
            "parses": meter.counts["parse"],
            "saves": stats["save"],
            "renders": meter.counts["render"]}.items()},
        "failures": dict(bench.failures),
        "phases": dict(Counter(
            "-" if doc.get_match() is None else doc.get_match().phase.name.lower()
            for doc in bench.docs.values())),
    }


def _pin_workers(cpus: tuple[int, ...] | None, nice: int) -> None:
    from bot import offload
    for pid in list(getattr(offload._pool, "_processes", None) or {}):
        with contextlib.suppress(OSError):
            if cpus is not None:
                os.sched_setaffinity(pid, cpus)
            os.setpriority(os.PRIO_PROCESS, pid, nice)


def _threads_cpu() -> dict[str, float]:
    """CPU seconds so far of this process's live threads, by name (digits dropped: a pool's
    threads together), from Linux /proc (empty elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK")
    found: Counter[str] = Counter()
    for thread in threading.enumerate():
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/self/task/{thread.native_id}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            name = (type(thread).__name__ if thread.name.startswith("Thread-")
                    else re.sub(r"[-_]?\d+", "", thread.name))
            found[name] += (int(fields[11]) + int(fields[12])) / tick
    return dict(found)


def _drawn() -> int:
    """Pictures drawn so far (`bot.pictures`; an older bot counted cache misses)."""
    from bot import pictures
    return sum(getattr(cache, "drawn", cache.misses) for cache in (pictures.hands,
                                                                     pictures.tables))


def _workers_affinity() -> list[int] | None:
    from bot import offload
    pool = offload._pool
    found: set[int] = set()
    for pid in list(getattr(pool, "_processes", None) or {}):
        with contextlib.suppress(OSError):
            found |= os.sched_getaffinity(pid)
    return sorted(found) or None


def _workers_cpu() -> float:
    """CPU seconds used so far by `bot.offload`'s worker processes (Linux /proc)."""
    from bot import offload
    pool = offload._pool
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in list(getattr(pool, "_processes", None) or {}):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def _wait_stop(bench: _Bench) -> None:
    event = asyncio.Event()
    bench.events[-1] = event
    while not bench.stopping:
        event.clear()
        await event.wait()


def _table(report: dict[str, Any]) -> Iterator[str]:
    yield (f"{report['tables']} tables × {report['humans']} humans, "
           f"{report['workers']} worker processes, {report['seconds']} s "
           f"(after {report['warmup']} s of warm-up), "
           f"load average {report['load_average']}, cpus {report['cpus']}, "
           f"worker cpus {report['worker_cpus']}")
    yield (f"  moves {report['moves']} ({report['moves_per_second']}/s), "
           f"hands {report['hands']}")
    for key, label in (("play_to_commit_ms", "Play → commit"), ("first_reply_ms", "first reply"),
                       ("loop_lag_ms", "loop lag")):
        entry = report[key]
        yield (f"  {label:14} p50 {entry['p50']} ms, p99 {entry['p99']} ms, "
               f"max {entry['max']} ms (n={entry['n']})")
    yield (f"  CPU per hand {report['cpu_per_hand_s']} s; outside thinking, rendering and "
           f"the simulated Discord {report['own_cpu_per_hand_s']} s")
    yield (f"  own CPU per move {report['own_cpu_per_move_ms']} ms = "
           f"{report['own_over_apply']}× apply ({report['apply_per_move_ms']} ms)")
    yield f"  per move: {report['per_move']}  cpu: {report['cpu_s']}"
    yield f"  threads' CPU (s): {report.get('threads_cpu_s')}"
    yield (f"  discord.py's event parsers (the bot's; SimCord's hooks inside included): "
           f"{report.get('discord_py_parse')}")
    yield from traffic_lines(report)
    if report["failures"]:
        yield f"  failures: {report['failures']}"
    yield f"  tables at the end, by phase: {report['phases']}"
    yield "  GC pauses: " + ", ".join(
        f"{gen}: n={entry['n']} p50 {entry['p50']} max {entry['max']} total {entry['total']} ms"
        for gen, entry in report["gc_pauses_ms"].items())
    for entry in report.get("lag_stacks", ()):
        yield f"  loop held {entry['ms']} ms in: " + " ← ".join(reversed(entry["stack"]))


SWEEP_HEADER = ("| tables | moves/s | Play → commit p50 / p99 | first reply p50 / p99 | "
                "loop lag p50 / p99 | loop CPU per move | worker CPU per move | "
                "loads / parses / saves / renders per move | load average |")


def sweep_row(report: dict[str, Any]) -> str:
    """One Markdown table row of a report (`SWEEP_HEADER`)."""
    def pair(key: str) -> str:
        entry = report[key]
        return f"{_num(entry['p50'])} / {_num(entry['p99'])} ms"
    moves = report["moves"] or 1
    cpu = report["cpu_s"]
    per = report["per_move"]
    counts = " / ".join(_num(per[k]) for k in ("loads", "parses", "saves", "renders"))
    return (f"| {report['tables']} | {report['moves_per_second']} | "
            f"{pair('play_to_commit_ms')} | {pair('first_reply_ms')} | {pair('loop_lag_ms')} | "
            f"{cpu['loop_process'] / moves * 1000:.1f} ms | "
            f"{cpu['workers'] / moves * 1000:.1f} ms | {counts} | "
            f"{report['load_average'][0]} |")


def _per(count: float, moves: int) -> float | None:
    """`count` per move, to three places (None without moves)."""
    return None if not moves else round(count / moves, 3)


def traffic_lines(report: dict[str, Any]) -> Iterator[str]:
    """The report's Discord traffic per move, one kind of call a line."""
    yield f"  gateway events parsed per move: {report.get('gateway_per_move')}"
    for kind, entry in report.get("traffic", {}).items():
        shapes = ", ".join(f"{s['rows']}/{s['buttons']}/{s['selects']}/{s['options']} "
                           f"{s['share']:.0%}" for s in entry["shapes"])
        yield (f"  {kind:22} {entry['per_move']} a move; per call {entry['bytes']} bytes, "
               f"{entry['files']} uploads, {entry['kept']} kept, {entry['content']} chars; "
               f"rows/buttons/selects/options: {shapes}")


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}" if value >= 100 else f"{value:g}"


def _run(config: BenchConfig, floor: bool,
         recipe: Path | None) -> tuple[dict[str, Any], Iterator[str]]:
    """One run of the bench (or of the floor), its report and its printed lines."""
    if floor:
        from bot import bench_floor
        source = _recipe(recipe)
        report = asyncio.run(bench_floor.run_floor(
            config, None if source is None else source["traffic"], source))
        return report, bench_floor.floor_lines(report)
    report = asyncio.run(run_bench(config))
    return report, _table(report)


def _recipe(path: Path | None) -> dict[str, Any] | None:
    """A saved ``--json`` report of the bench (the last, if the file holds several), for
    its ``traffic`` (the floor's recipe), or None (the floor's default recipe)."""
    if path is None:
        return None
    text = path.read_text()
    decoder, found, index = json.JSONDecoder(), None, 0
    while index < len(text):
        if text[index].isspace():
            index += 1
            continue
        found, index = decoder.raw_decode(text, index)
    if not isinstance(found, dict) or not isinstance(found.get("traffic"), dict):
        raise SystemExit(f"{path}: no 'traffic' in the report")
    return found


def _cpus(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--sweep", type=_cpus, default=None, metavar="N,N,...",
                        help="run once per number of tables (e.g. 1,10,50,100,200) and "
                             "print one table row per run")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds the tables play before measuring starts")
    parser.add_argument("--hands", type=int, default=None,
                        help="stop after this many settled hands (all tables)")
    parser.add_argument("--humans", type=int, default=2, choices=range(0, 5),
                        help="simulated people per table (the rest are computers)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a person thinks before acting")
    parser.add_argument("--computer", default="ai", help="computer player (engine.ai)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edit-interval", type=float, default=1.0,
                        help="seconds between two edits of a table message (coalescing)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes for pictures and computers (0: threads; "
                             "default 1, as TRACTOR_WORKERS)")
    parser.add_argument("--loop-cpus", type=_cpus, default=None, metavar="N,...",
                        help="pin the bot's process (event loop, its threads) to these cores")
    parser.add_argument("--worker-cpus", type=_cpus, default=None, metavar="N,...",
                        help="run the worker processes on these cores")
    parser.add_argument("--pin", action="store_true",
                        help="the loop on core 0, the workers on core 1 "
                             "(--loop-cpus 0 --worker-cpus 1)")
    parser.add_argument("--worker-nice", type=int, default=10,
                        help="niceness of the worker processes (production: 10)")
    parser.add_argument("--lag-every", type=float, default=0.1,
                        help="seconds between two event-loop lag samples (each wakes the "
                             "loop from another thread, which the loop pays)")
    parser.add_argument("--stacks", type=int, default=8,
                        help="print the loop's N most frequent stacks while it lagged")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--floor", action="store_true",
                        help="run the floor instead (bot/bench_floor.py): a minimal "
                             "discord.py bot doing only the real bot's Discord traffic a "
                             "move; prints its CPU per move and its ratio to apply")
    parser.add_argument("--attribute", action="store_true",
                        help="run twice, the second time profiled, and print the own CPU "
                             "per move by layer (bot/bench_attribute.py)")
    parser.add_argument("--floor-recipe", type=Path, default=None, metavar="FILE",
                        help="with --floor: the traffic to reproduce, from a report of "
                             "`python -m bot.bench --json` (default: the recorded one)")
    args = parser.parse_args(argv)
    import logging
    logging.getLogger("tractor").setLevel(logging.WARNING)
    loop_cpus, worker_cpus = args.loop_cpus, args.worker_cpus
    if args.pin:
        loop_cpus, worker_cpus = loop_cpus or (0,), worker_cpus or (1,)
    reports = []
    for tables in args.sweep or [args.tables]:
        config = BenchConfig(tables=tables, seconds=args.seconds, hands=args.hands,
                             humans=args.humans, think=args.think, computer=args.computer,
                             seed=args.seed, workers=args.workers,
                             edit_interval=args.edit_interval, loop_cpus=loop_cpus,
                             worker_cpus=worker_cpus, stacks=args.stacks,
                             worker_nice=args.worker_nice, warmup=args.warmup,
                             lag_every=args.lag_every)
        report, lines = _run(config, args.floor, args.floor_recipe)
        if args.attribute:
            from bot import bench_attribute
            profiled, _ = _run(dataclasses.replace(config, profile=True), args.floor,
                               args.floor_recipe)
            report = {**report, "attribution": bench_attribute.attribution(report, profiled)}
            lines = itertools.chain(lines, bench_attribute.table_lines(
                report["attribution"]))
        reports.append(report)
        if args.json:
            print(json.dumps(report, indent=2), flush=True)
        else:
            print("\n".join(lines), flush=True)
    if args.sweep and not args.json and not args.floor:
        print("\n" + SWEEP_HEADER)
        print("|---" * SWEEP_HEADER.count(" | ") + "|---|")
        for report in reports:
            print(sweep_row(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
