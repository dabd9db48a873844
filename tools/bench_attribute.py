"""``python -m tools.bench --attribute``: where the bot's own CPU per move goes, by layer.

Two runs of the same bench: one as usual (its "own" CPU per move, its threads' CPU, its
collector's), then one with cProfile on the event loop's thread during the measured window
(`tools.bench_meter._Window`). The profile's time per function (``tottime``) is put in a layer by
the function's file (`layer_of`): discord.py (and its HTTP client's packages), asyncio,
the bot (bot/, the bench's modules aside), the engine (engine/), pickling and the worker
pool's plumbing (`WORKER_IO`, ``pickle``, ``multiprocessing``); the simulated Discord
(SimCord) and the bench itself are left out, as "own" leaves them out, and so is the
library code they call (SimCord builds `discord.Message` objects for the simulated people;
the bot's parsers and callbacks it runs are the bot's, through `tools.bench_meter._Meter._ours`).
Built-in and standard-library functions (``dict.get``, ``json.dumps``, ``re``) are charged
to whoever called them, in proportion to what each caller spent in them (`attribute`);
waiting for events (``epoll.poll``) is idle.

The loop thread's share of "own" (own less the other threads' CPU and the collector's) is
then split in the profile's proportions, which takes the profiler's overhead out (the
profile inflates every layer by about the same factor; per call it inflates the layers that
make many small calls a little more). The other threads (the storage thread's) and the
garbage collector are rows of their own, from the first run.
"""

from __future__ import annotations

import pstats
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

__all__ = ["LAYERS", "attribute", "attribution", "layer_of", "profile_layers", "profile_top",
           "split_own", "table_lines"]

LAYERS = ("discord.py", "asyncio", "bot", "engine", "pickling/worker IO", "unattributed")
"""The loop thread's layers, in the table's order."""
EXCLUDED = ("simulated Discord", "bench", "idle")
"""What the profile holds that is not the bot's own."""

WORKER_IO = ("bot/runtime/offload.py", "engine/wire.py")
"""The project's own plumbing to the worker processes (their pipes, views as plain data
to pickle): counted with pickling."""
_ROOT = str(Path(__file__).resolve().parent.parent)
Func = tuple[str, int, str]
Mix = dict[str, float]
"""Shares (or seconds) per layer."""


def layer_of(func: Func) -> str | None:
    """The layer of a profiled function (``(file, line, name)``), None when its callers'
    (a built-in or the standard library's)."""
    filename, _, name = func
    if filename == "~":
        if "epoll" in name or "select.select" in name or "poll' of" in name:
            return "idle"
        if "pickle" in name:
            return "pickling/worker IO"
        return None
    path = filename.replace("\\", "/")
    if "/simcord/" in path:
        return "simulated Discord"
    if path.startswith(_ROOT + "/"):
        local = path[len(_ROOT) + 1:]
        if local.startswith(("tools/", "tests/")):
            return "bench"
        if local in WORKER_IO:
            return "pickling/worker IO"
        if local.startswith("bot/"):
            return "bot"
        if local.startswith("engine/"):
            return "engine"
    for marker, layer in (("/discord/", "discord.py"), ("/aiohttp/", "discord.py"),
                          ("/yarl/", "discord.py"), ("/multidict/", "discord.py"),
                          ("/asyncio/", "asyncio"), ("/selectors.py", "asyncio"),
                          ("/concurrent/futures/", "asyncio"),
                          ("/multiprocessing/", "pickling/worker IO"),
                          ("/pickle.py", "pickling/worker IO"),
                          ("/copyreg.py", "pickling/worker IO")):
        if marker in path:
            return layer
    return None


class _ThroughCallers:
    """A distribution per function: `fixed`'s when it has one, else its callers' mixed in
    proportion to the time each spent in it (``tottime`` per caller), up to `depth`
    callers up; `top` at the top of a stack. Within a cycle (``copy.deepcopy`` and its
    helpers call each other) the callers from outside the cycle decide."""

    def __init__(self, stats: dict[Func, Any], fixed: Callable[[Func], Mix | None],
                 top: str, depth: int = 12) -> None:
        self.stats, self.fixed, self.top, self.depth = stats, fixed, top, depth
        self.known: dict[Func, Mix] = {}
        self.visiting: set[Func] = set()

    def __call__(self, func: Func) -> Mix:
        found, _ = self._get(func, 0)
        return found or {self.top: 1.0}

    def _get(self, func: Func, level: int) -> tuple[Mix, bool]:
        """The distribution (empty: only through a cycle) and whether callers in a cycle
        were left out (then it is not kept)."""
        known = self.known.get(func)
        if known is not None:
            return known, False
        fixed = self.fixed(func)
        if fixed is not None:
            self.known[func] = fixed
            return fixed, False
        if level >= self.depth:
            return {"unattributed": 1.0}, True
        callers = self.stats[func][4] if func in self.stats else {}
        partial = False
        parts: list[tuple[Mix, float]] = []
        self.visiting.add(func)
        for caller, entry in callers.items():
            if caller in self.visiting:
                partial = True
                continue
            part, cut = self._get(caller, level + 1)
            partial = partial or cut
            if part and entry[2] > 0:
                parts.append((part, entry[2]))
        self.visiting.discard(func)
        total = sum(weight for _, weight in parts)
        out: defaultdict[str, float] = defaultdict(float)
        for part, weight in parts:
            for name, value in part.items():
                out[name] += value * weight / total
        if not out and not partial:
            out[self.top] = 1.0
        if not partial:
            self.known[func] = out
        return out, partial


Wrappers = tuple[frozenset[tuple[str, int]], frozenset[tuple[str, int]]]
"""(file, first line) of the bench's wrappers that run the bot's code for the simulator,
and of those that only time what runs in them (`tools.bench_meter._Meter.wrappers`)."""
NO_WRAPPERS: Wrappers = (frozenset(), frozenset())


def attribute(stats: dict[Func, Any], wrappers: Wrappers = NO_WRAPPERS,
              depth: int = 12) -> defaultdict[str, float]:
    """Seconds of ``tottime`` per layer. A function of the project or of the simulator
    is its file's layer; a library's (discord.py, asyncio, ...) is its layer when it runs
    for the bot, and the simulator's or the bench's when they called it (SimCord builds
    `discord.Message` objects for the simulated people): its callers decide, up to the
    project, the simulator or the bench's `wrappers` that run the bot's code (the bot's
    callbacks and parsers the simulator runs); built-ins and the standard library
    (`layer_of` None) are charged to their callers, library or not."""
    ours, transparent = wrappers

    def on_behalf(func: Func) -> Mix | None:
        if func[:2] in ours:
            return {"ours": 1.0}
        if func[:2] in transparent:
            return None
        layer = layer_of(func)
        if layer in ("bot", "engine") or (layer == "pickling/worker IO"
                                          and func[0].startswith(_ROOT + "/")):
            return {"ours": 1.0}
        if layer in ("simulated Discord", "bench"):
            return {layer: 1.0}
        return None

    context = _ThroughCallers(stats, on_behalf, "ours", depth)

    def own_time(func: Func) -> Mix | None:
        layer = layer_of(func)
        if layer is None:
            return None
        if layer in ("bot", "engine", "simulated Discord", "bench", "idle") or \
                func[0].startswith(_ROOT + "/"):
            return {layer: 1.0}
        mix = context(func)
        return {(layer if whose == "ours" else whose): part
                for whose, part in mix.items()}

    share = _ThroughCallers(stats, own_time, "unattributed", depth)
    found: defaultdict[str, float] = defaultdict(float)
    for func, entry in stats.items():
        for layer, value in share(func).items():
            found[layer] += entry[2] * value
    return found


def split_own(profile: Mapping[str, float], own_ms: float, threads_ms: dict[str, float],
              gc_ms: float) -> dict[str, float]:
    """Own CPU per move by layer: the loop thread's share (`own_ms` less the other
    threads' and the collector's) split in `profile`'s proportions, then the threads and
    the collector."""
    loop_ms = own_ms - sum(threads_ms.values()) - gc_ms
    ours = {layer: profile.get(layer, 0.0) for layer in LAYERS}
    total = sum(ours.values())
    rows = {layer: (loop_ms * seconds / total if total > 0 else 0.0)
            for layer, seconds in ours.items()}
    rows.update({f"thread {name}": ms for name, ms in threads_ms.items()})
    rows["garbage collector"] = gc_ms
    return {name: round(ms, 3) for name, ms in rows.items()}


def other_threads_ms(report: dict[str, Any]) -> dict[str, float]:
    """Per move, the CPU of the bot process's threads but the loop's and the bench's."""
    moves = report["moves"] or 1
    return {name: seconds * 1000 / moves
            for name, seconds in report.get("threads_cpu_s", {}).items()
            if name != "MainThread" and not name.startswith("bench")}


def profile_layers(profile: Any, wrappers: Wrappers = NO_WRAPPERS) -> dict[str, float]:
    """Seconds per layer (excluded ones too) of a finished ``cProfile.Profile``."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return {layer: round(seconds, 4)
            for layer, seconds in attribute(stats, wrappers).items()}


def profile_top(profile: Any, count: int = 8) -> dict[str, list[tuple[str, float]]]:
    """Per layer of the bot's (`LAYERS`), its `count` functions of most ``tottime``
    (their own time only, seconds), as ``file:line name``."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    found: dict[str, list[tuple[str, float]]] = {}
    for func, entry in stats.items():
        layer = layer_of(func)
        if layer in LAYERS:
            name = f"{'/'.join(func[0].split('/')[-2:])}:{func[1]} {func[2]}"
            found.setdefault(layer, []).append((name, round(entry[2], 4)))
    return {layer: sorted(items, key=lambda item: -item[1])[:count]
            for layer, items in found.items()}


def attribution(plain: dict[str, Any], profiled: dict[str, Any]) -> dict[str, Any]:
    """The table's figures from an unprofiled report and a profiled one."""
    moves = plain["moves"] or 1
    own = plain["own_cpu_per_move_ms"] or 0.0
    gc_ms = plain["cpu_s"]["gc"] * 1000 / moves
    threads = other_threads_ms(plain)
    layers: Mix = dict(profiled.get("profile_s", {}))
    rows = split_own(layers, own, threads, gc_ms)
    ours = sum(layers.get(layer, 0.0) for layer in LAYERS)
    return {"own_cpu_per_move_ms": own, "apply_per_move_ms": plain["apply_per_move_ms"],
            "top_functions_s": profiled.get("profile_top", {}),
            "rows_ms": rows,
            "profile_ms_per_move": {name: round(seconds * 1000 / (profiled["moves"] or 1), 3)
                                    for name, seconds in sorted(layers.items())},
            "profile_over_plain": (None if not own else round(
                ours * 1000 / (profiled["moves"] or 1)
                / max(own - sum(threads.values()) - gc_ms, 1e-9), 2))}


def table_lines(result: dict[str, Any]) -> Iterator[str]:
    """The attribution, printed as a small Markdown table."""
    own = result["own_cpu_per_move_ms"] or 0.0
    apply = result["apply_per_move_ms"] or 0.0
    yield (f"own CPU per move {own} ms (apply {apply} ms); the loop thread's profile "
           f"ran {result['profile_over_plain']}× slower")
    yield "| layer | ms per move | share of own | × apply |"
    yield "|---|---|---|---|"
    for name, ms in result["rows_ms"].items():
        yield (f"| {name} | {ms:.3f} | {ms / own:.0%} | "
               f"{(ms / apply if apply else 0):.1f} |" if own else f"| {name} | {ms} | | |")
    for layer, items in result.get("top_functions_s", {}).items():
        yield f"top of {layer} (profiled s): " + "; ".join(
            f"{name} {seconds}" for name, seconds in items[:5])
    profile = result["profile_ms_per_move"]
    yield "profiled ms per move (inflated; excluded layers included): " + ", ".join(
        f"{name} {ms}" for name, ms in profile.items())
