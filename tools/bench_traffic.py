"""The bot's Discord traffic by kind, as the simulated Discord receives it (`tools.bench`).

`Traffic.note` classifies every HTTP call the bot makes (an interaction's answer by its
callback type, a message sent or edited in a DM or a server channel, an interaction's
original response edited, ...) and sums, per kind, what the call carried: payload bytes,
uploaded files, attachments kept, and its components (rows, buttons, selects, select
options). The bench reports it per committed move (``traffic``), which is the recipe the
floor (`tools.bench_floor`) reproduces.

`GlobalLimit` watches the same calls under Discord's global limit: which count against it
(`bot.runtime.budget.counted`: all but interaction endpoints), how many a second at most in
any 1-second window, by kind; given a limit, it answers a counted call past it with
Discord's 429 (``X-RateLimit-Global``), which SimCord does not model, and counts them.
"""

from __future__ import annotations

import bisect
import json
import math
import re
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterator
from typing import Any

from bot.runtime.budget import counted

__all__ = ["ANSWER_KINDS", "GlobalLimit", "Traffic", "busiest_second", "kind_of", "limit_lines",
           "shape_of", "traffic_lines"]

ANSWER_KINDS = {4: "message", 5: "deferred message", 6: "deferred update", 7: "update",
                8: "autocomplete", 9: "modal"}
"""Interaction callback types (Discord's numbers) by name."""

_CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
_ORIGINAL = re.compile(r"^/webhooks/\d+/[^/]+/messages/@original$")
_FOLLOWUP = re.compile(r"^/webhooks/\d+/[^/]+(?:/messages/\d+)?$")
_MESSAGE = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
_DM_TYPES = {1, 3}
FIELDS = ("calls", "bytes", "files", "kept", "content", "embeds", "rows", "buttons",
          "selects", "options")
"""What `Traffic` sums per kind of call."""


def kind_of(method: str, path: str, payload: Any, channel_type: int | None) -> str:
    """The kind of one HTTP call: ``answer update``, ``edit dm``, ``send channel``, ..."""
    if method == "POST" and _CALLBACK.match(path):
        kind = payload.get("type") if isinstance(payload, dict) else None
        return f"answer {ANSWER_KINDS.get(kind, kind)}" if isinstance(kind, int) else "answer"
    if _ORIGINAL.match(path):
        return f"{method.lower()} original"
    if _FOLLOWUP.match(path):
        return f"{method.lower()} followup"
    found = _MESSAGE.match(path)
    if found is not None:
        where = "dm" if channel_type in _DM_TYPES else "channel"
        verb = {"POST": "send", "PATCH": "edit", "DELETE": "delete"}.get(method,
                                                                          method.lower())
        return f"{verb} {where}"
    return f"{method} " + re.sub(r"\d+", "{id}", path)


def shape_of(payload: Any) -> tuple[int, int, int, int]:
    """(rows, buttons, selects, select options) of a message payload's components (an
    interaction answer's ``data`` included)."""
    if isinstance(payload, dict) and isinstance(payload.get("data"), dict):
        payload = payload["data"]
    rows = payload.get("components") if isinstance(payload, dict) else None
    if not isinstance(rows, list):
        return 0, 0, 0, 0
    buttons = selects = options = 0
    for row in rows:
        for item in row.get("components", ()) if isinstance(row, dict) else ():
            if item.get("type") == 2:
                buttons += 1
            elif item.get("type") in (3, 5, 6, 7, 8):
                selects += 1
                options += len(item.get("options") or ())
    return len(rows), buttons, selects, options


Shape = tuple[int, int, int, int]
"""A message's components: rows, buttons, selects, select options (`shape_of`)."""


class Traffic:
    """Per kind of call and components shape: the sums of `FIELDS`."""

    def __init__(self) -> None:
        self.sums: defaultdict[tuple[str, Shape], Counter[str]] = defaultdict(Counter)

    def clear(self) -> None:
        self.sums.clear()

    def note(self, method: str, path: str, payload: Any, files: Any,
             channel_type: int | None) -> str:
        """Count one call; returns its kind."""
        kind = kind_of(method, path, payload, channel_type)
        shape = shape_of(payload)
        sums = self.sums[kind, shape]
        sums["calls"] += 1
        sums["files"] += len(files or ())
        if payload is not None:
            sums["bytes"] += len(json.dumps(payload, separators=(",", ":"), default=str))
        message = payload.get("data", payload) if isinstance(payload, dict) else None
        if isinstance(message, dict):
            attachments = message.get("attachments") or ()
            sums["kept"] += sum(1 for a in attachments
                                if isinstance(a, dict) and "filename" not in a)
            sums["content"] += len(message.get("content") or "")
            sums["embeds"] += len(message.get("embeds") or ())
        for name, value in zip(FIELDS[-4:], shape, strict=True):
            sums[name] += value
        return kind

    def report(self, moves: int, shapes: int = 4) -> dict[str, dict[str, Any]]:
        """Per kind: calls per move and per call the mean of each other field; and its
        `shapes` most frequent kinds of components (by rows, buttons and selects: a hand
        panel's options vary with the hand), each with its share of the calls and its own
        means (what `tools.bench_floor` reproduces)."""
        kinds: defaultdict[str, Counter[str]] = defaultdict(Counter)
        classes: defaultdict[str, defaultdict[tuple[int, ...], Counter[str]]] = \
            defaultdict(lambda: defaultdict(Counter))
        for (kind, shape), sums in self.sums.items():
            kinds[kind].update(sums)
            classes[kind][shape[:3]].update(sums)
        out: dict[str, dict[str, Any]] = {}
        for kind, total in sorted(kinds.items()):
            calls = total["calls"]
            entry: dict[str, Any] = {"per_move": round(calls / moves, 3) if moves else None}
            entry.update(_means(total))
            mine = sorted(classes[kind].values(), key=lambda sums: -sums["calls"])
            entry["shapes"] = [{**_means(sums), "share": round(sums["calls"] / calls, 3)}
                               for sums in mine[:shapes]]
            out[kind] = entry
        return out


def _means(sums: Counter[str]) -> dict[str, float]:
    calls = sums["calls"] or 1
    return {name: round(sums[name] / calls, 1) for name in FIELDS[1:]}


def traffic_lines(report: dict[str, Any]) -> Iterator[str]:
    """The report's Discord traffic per move, one kind of call a line."""
    yield f"  gateway events parsed per move: {report.get('gateway_per_move')}"
    for kind, entry in report.get("traffic", {}).items():
        shapes = ", ".join(f"{s['rows']}/{s['buttons']}/{s['selects']}/{s['options']} "
                           f"{s['share']:.0%}" for s in entry["shapes"])
        yield (f"  {kind:22} {entry['per_move']} a move; per call {entry['bytes']} bytes, "
               f"{entry['files']} uploads, {entry['kept']} kept, {entry['content']} chars; "
               f"rows/buttons/selects/options: {shapes}")


def busiest_second(times: list[float], window: float = 1.0) -> int:
    """The most of `times` (sorted) in any `window`-long interval."""
    best = 0
    for index, start in enumerate(times):
        best = max(best, bisect.bisect_left(times, start + window - 1e-9, index) - index)
    return best


class _Response:
    """What ``discord.HTTPException`` reads of an aiohttp response."""

    def __init__(self, status: int, reason: str, headers: dict[str, str]) -> None:
        self.status, self.reason, self.headers = status, reason, headers


class GlobalLimit:
    """Discord's per-bot global limit around SimCord's router (``router.dispatch``):
    every call is noted (when, its kind, whether it `counted`); with a `limit`, a counted
    call that would make more than the limit in the last second (below one a second, one
    call every ``1/limit`` seconds, as `RestBudget` counts) is refused as Discord refuses it:
    status 429, ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``,
    ``Retry-After`` and the JSON body's ``retry_after`` and ``global`` (what discord.py's
    ``HTTPClient.request`` reads to hold every call). SimCord replaces that method, so the
    bot sees the refusal as the ``discord.HTTPException`` discord.py raises once it gives
    up. `clock`: the bench's real clock, or SimCord's virtual one (the default, read at each
    call)."""

    def __init__(self, limit: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.limit = limit
        self.clock = clock if clock is not None else (lambda: time.monotonic())
        self.burst = 0 if limit is None else max(1, math.floor(limit))
        self.window = 0.0 if limit is None else max(1.0, self.burst / limit)
        self._recent: deque[float] = deque()
        self.counted: list[tuple[float, str]] = []
        """(when, kind) of every counted call Discord accepted."""
        self.free: Counter[str] = Counter()
        """Interaction calls, by kind."""
        self.refused: Counter[str] = Counter()
        """Counted calls answered with a global 429, by kind (the whole run)."""

    def clear(self) -> None:
        """Start the measured window (the 429s keep counting from the start: one in the
        warm-up loses a message just the same)."""
        self.counted.clear()
        self.free.clear()

    def note(self, method: str, path: str, payload: Any, channel_type: int | None) -> None:
        """One call reaching Discord: noted, or refused (raises the 429)."""
        kind = kind_of(method, path, payload, channel_type)
        if not counted(path):
            self.free[kind] += 1
            return
        now = self.clock()
        recent = self._recent
        while recent and now - recent[0] >= self.window - 1e-9:
            recent.popleft()
        if self.burst and len(recent) >= self.burst:
            self.refused[kind] += 1
            raise self._refusal(recent[0] + self.window - now)
        recent.append(now)
        self.counted.append((now, kind))

    @staticmethod
    def _refusal(retry_after: float) -> Exception:
        import discord
        retry = round(max(retry_after, 0.001), 3)
        response = _Response(429, "Too Many Requests", {
            "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
            "Retry-After": str(math.ceil(retry))})
        return discord.HTTPException(response, {
            "message": "You are being rate limited.", "retry_after": retry, "global": True,
            "code": 0})

    def install(self) -> Callable[[], None]:
        """Put the limit in front of SimCord's router; returns the undo."""
        import simcord.http.router as router

        original = router.dispatch
        channel = re.compile(r"^/channels/(\d+)/")

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            found = channel.match(path)
            where = None if found is None else backend.channels.get(int(found.group(1)))
            self.note(method, path, kwargs.get("json"), getattr(where, "type", None))
            return original(backend, method, path, **kwargs)

        router.dispatch = dispatch

        def undo() -> None:
            router.dispatch = original
        return undo

    def report(self, commits: int, seconds: float) -> dict[str, Any]:
        """Counted calls per commit and a second, the busiest second, by kind; the
        interaction calls beside them; the 429s."""
        times = sorted(t for t, _ in self.counted)
        kinds = Counter(kind for _, kind in self.counted)
        per_kind: defaultdict[str, list[float]] = defaultdict(list)
        for when, kind in self.counted:
            per_kind[kind].append(when)

        def rate(n: int, per: float) -> float | None:
            return None if not per else round(n / per, 3)
        return {
            "limit": self.limit,
            "global_per_commit": rate(len(times), commits),
            "global_per_second": rate(len(times), seconds),
            "global_busiest_second": busiest_second(times),
            "interaction_per_commit": rate(sum(self.free.values()), commits),
            "global_by_kind": {kind: {"per_commit": rate(n, commits),
                                      "per_second": rate(n, seconds),
                                      "busiest_second": busiest_second(sorted(per_kind[kind]))}
                               for kind, n in kinds.most_common()},
            "interaction_by_kind": {kind: rate(n, commits)
                                    for kind, n in self.free.most_common()},
            "global_429": sum(self.refused.values()),
            "global_429_by_kind": dict(self.refused),
        }


def limit_lines(report: dict[str, Any]) -> Iterator[str]:
    """The global-limit part of a report (`GlobalLimit.report`), a few lines."""
    entry = report.get("global")
    if not entry:
        return
    yield (f"  global-limited calls: {entry['global_per_commit']} a commit, "
           f"{entry['global_per_second']}/s, busiest second {entry['global_busiest_second']} "
           f"(limit {entry['limit']}); 429s {entry['global_429']}; interaction calls "
           f"{entry['interaction_per_commit']} a commit")
    for kind, value in entry["global_by_kind"].items():
        yield (f"    {kind:18} {value['per_commit']} a commit, {value['per_second']}/s, "
               f"busiest second {value['busiest_second']}")
    yield f"    interaction calls a commit: {entry['interaction_by_kind']}"
