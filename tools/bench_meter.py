"""The benches' harness (`tools.bench`, `tools.bench_floor`): the configuration, the meter
that counts the simulated world's CPU out of the bot process's (`_Meter`), the measured
window and its shared figures (`_Window`), the lag and collector probes, real-time sleeps
under SimCord, and a simulated person's click (`click`). The accounting is described in
`tools.bench`'s docstring.
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import functools
import gc
import math
import os
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from tools.bench_attribute import profile_layers, profile_top
from tools.bench_traffic import Traffic

__all__ = ["BenchConfig", "click", "pin_process", "real_monotonic", "wall_sleep"]


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
    `tools.bench_attribute`)."""
    action_delay: float = 0.0
    """Seconds a computer waits before its move (the bot's default, 1 s, is the realistic
    pace; 0: as fast as they think)."""
    rest_budget: float = math.inf
    """The bot's REST budget (`Config.rest_budget`, calls a second; inf: no governor)."""
    limit: float | None = None
    """Discord's global limit, simulated (`tools.bench_traffic.GlobalLimit`): counted
    calls past it in any second get a global 429; None: no limit, only counted."""
    tokens: bool = True
    """Table messages and announcements through the channel's live interaction tokens
    (bot/ui/carry.py); False: by channel id only, as before issue 36's tokens."""
    """Report the loop's `stacks` most frequent stacks while it lagged (0: none)."""


@dataclass(slots=True)
class _Press:
    token: str
    sent: float
    kind: str
    acked: float | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    finished: float | None = None
    """When `done` was set (a card pick: its panel redrawn)."""


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

    TOKEN = re.compile(r"^/(?:interactions/\d+|webhooks/\d+)/([^/?]+)(?:/|$)")
    CHANNEL = re.compile(r"^/channels/(\d+)/(?:messages/(\d+))?")

    def __init__(self) -> None:
        self.cpu: defaultdict[str, float] = defaultdict(float)
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
        self.token_channels: dict[str, int] = {}
        """The channel of each interaction (by token): its edits and follow-ups land there."""
        self.shown: Callable[[int, int, float], None] | None = None
        """Told (channel, step, when) each time a message with the bot's components is sent
        or edited in a channel (by id, or through a token: a follow-up of an interaction
        made there): what step it shows (the table message's staleness)."""
        self.written: Counter[tuple[int, str, bool]] = Counter()
        """Messages sent (POST) and edited (PATCH) in each channel, through a token (True)
        or by channel id (False)."""
        self._depth = _DEPTH

    @staticmethod
    def wrappers() -> tuple[frozenset[tuple[str, int]], frozenset[tuple[str, int]]]:
        """(file, first line) of the wrappers that run the bot's code for the simulated
        world (`_ours`), and of those that only time what runs in them (`_wrap`: whoever
        calls decides whose it is): what `tools.bench_attribute.attribute` needs to tell the
        bot's calls of a library from the simulator's."""
        def inner(method: Any) -> frozenset[tuple[str, int]]:
            return frozenset((const.co_filename, const.co_firstlineno)
                             for const in method.__code__.co_consts
                             if isinstance(const, type(inner.__code__))
                             and const.co_name == "wrapper")
        return inner(_Meter._ours), inner(_Meter._wrap)

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

    def _simulated(self, function: Callable[..., Any], key: str) -> Callable[..., Any]:
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

        import bot.present.images
        import bot.services.players
        from engine.game import Match

        if in_process:
            self.timed_function(bot.services.players.__name__, "computer_action", "think")
            for name in ("table_png", "hand_png", "summary_png"):
                self.timed_function(bot.present.images.__name__, name, "render")
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
                self._observe(method, path, kwargs.get("json"), backend)

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
            self.restore.append(functools.partial(setattr, cell, "cell_contents", original))
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
            if callback is not None and invoke is not None:
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

    def _token_channel(self, token: str, backend: Any) -> int | None:
        """The channel of the interaction whose token this is (the bench's or SimCord's)."""
        known = self.token_channels.get(token)
        if known is not None or backend is None:
            return known
        found = getattr(backend, "interaction_tokens", {}).get(token)
        record = None if found is None else backend.interactions.get(found)
        return None if record is None else int(record.channel_id)

    def _observe(self, method: str, path: str, payload: Any = None,
                 backend: Any = None) -> None:
        """A call the bot made: a press is acknowledged by its callback, and done with it
        or its first edit; a card pick (``select``) when its panel is redrawn: answered
        with it (an UPDATE_MESSAGE callback, type 7) or edited after a deferral."""
        now = time.perf_counter()
        found = self.TOKEN.match(path)
        if found is not None:
            channel_id = self.token_channels.get(found.group(1))
            event = None if channel_id is None else self.channel_events.get(channel_id)
            if event is not None:
                event.set()  # an answer, a token edit, a follow-up: their panel may change
            press = self.presses.get(found.group(1))
            if press is not None:
                callback = path.endswith("/callback")
                if press.acked is None and callback:
                    press.acked = now
                if (press.kind != "select" or not callback
                        or (isinstance(payload, dict) and payload.get("type") == 7)):
                    if press.finished is None:
                        press.finished = now
                    press.done.set()
            if method in ("POST", "PATCH"):
                # A message edited or sent through a token (a DM panel edited through its
                # click, issue 36): its channel is not in the path, so every waiter looks.
                for waiter in self.channel_events.values():
                    waiter.set()
                if not path.endswith("/callback") and not path.endswith("/@original"):
                    # a follow-up or its edit: a message of the interaction's channel
                    channel_id = self._token_channel(found.group(1), backend)
                    if channel_id is not None:
                        self.written[channel_id, method, True] += 1
                        step = _step_shown(payload)
                        if self.shown is not None and step is not None:
                            self.shown(channel_id, step, now)
            return
        found = self.CHANNEL.match(path)
        if found is not None and method == "PATCH" and found.group(2):
            waiting = self.edits.pop(int(found.group(2)), None)
            if waiting is not None:
                if waiting.finished is None:
                    waiting.finished = now
                waiting.done.set()
        if found is not None and method in ("POST", "PATCH"):
            self.written[int(found.group(1)), method, False] += 1
            event = self.channel_events.get(int(found.group(1)))
            if event is not None:
                event.set()
            step = _step_shown(payload)
            if self.shown is not None and step is not None:
                self.shown(int(found.group(1)), step, now)

    def uninstall(self) -> None:
        for undo in reversed(self.restore):
            undo()
        self.restore.clear()


def _step_shown(payload: Any) -> int | None:
    """The step a message's components carry (``tr:{table}:{hand}:{step}:...``), if any."""
    rows = payload.get("components") if isinstance(payload, dict) else None
    steps = [int(parts[3]) for row in rows or () if isinstance(row, dict)
             for item in row.get("components", ()) if isinstance(item, dict)
             for parts in [str(item.get("custom_id") or "").split(":")]
             if len(parts) >= 5 and parts[0] == "tr" and parts[3].isdigit()]
    return max(steps) if steps else None


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




class _WallTime:
    """`time` for the publisher while measuring: its clock (the edit interval's) real, as
    its sleeps are (`_WallAsyncio`); SimCord's virtual clock stands still in the bench."""

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    @staticmethod
    def monotonic() -> float:
        return _real_monotonic()


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
    # asyncio.run's loop: a BaseEventLoop (SimCord only hooks it)
    asyncio.BaseEventLoop.call_at(cast(asyncio.BaseEventLoop, loop), when, _wake, future)
    return future


def real_monotonic() -> float:
    """The loop's real clock (``time.monotonic`` before SimCord replaced it)."""
    return _real_monotonic()


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


def click(meter: _Meter, actor: Any, message: Any, custom_id: str, kind: str,
          values: list[str] | None = None, *, guild: Any = None) -> _Press:
    """`actor` (a SimCord member in `guild`, or a user in a DM) uses the component
    `custom_id` of `message` (a select when `values` are given): the interaction is fed to
    the bot; the returned press is done when the bot answered it (`_Meter._observe`)."""
    from simcord import interactions
    from simcord.actors import _visible_message
    from simcord.backend import serializers
    from simcord.builders import ChannelHandle
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
    meter.token_channels[record.token] = stored.channel_id
    if kind == "select":
        meter.edits[stored.id] = press
    backend.emit("INTERACTION_CREATE", payload)
    return press


def _identity_records() -> Callable[[], None]:
    """SimCord removes each finished callback's record from a list of all pending ones
    (``list.remove``), comparing them with a generated dataclass ``__eq__``: with a few
    thousand pending timers (200 tables) that was half the loop's CPU, none of it the bot's.
    Records are distinct objects, so identity is what ``remove`` means: compare by it while
    measuring. Returns the undo."""
    from simcord import _runtime

    record = _runtime._CallbackRecord
    original = record.__eq__
    record.__eq__ = object.__eq__  # type: ignore[method-assign]

    def undo() -> None:
        record.__eq__ = original  # type: ignore[method-assign]
    return undo


def pin_process(cpus: tuple[int, ...]) -> None:
    """Pin every thread of this process to `cpus` (threads started later inherit it; on
    Linux ``sched_setaffinity(0)`` only pins the calling thread)."""
    tasks = Path("/proc/self/task")
    for tid in ([int(p.name) for p in tasks.iterdir()] if tasks.is_dir() else [0]):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(tid, cpus)


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
            "profile_s": profile_layers(self.profiler, _Meter.wrappers()),
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


def _threads_cpu() -> dict[str, float]:
    """CPU seconds so far of this process's live threads, by name (digits dropped: a pool's
    threads together), from Linux /proc (empty elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK")
    found: defaultdict[str, float] = defaultdict(float)
    for thread in threading.enumerate():
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/self/task/{thread.native_id}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            name = (type(thread).__name__ if thread.name.startswith("Thread-")
                    else re.sub(r"[-_]?\d+", "", thread.name))
            found[name] += (int(fields[11]) + int(fields[12])) / tick
    return dict(found)


def _per(count: float, moves: int) -> float | None:
    """`count` per move, to three places (None without moves)."""
    return None if not moves else round(count / moves, 3)
