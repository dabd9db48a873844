"""The bot's Discord traffic by kind, as the simulated Discord receives it (`tools.bench`).

`Traffic.note` classifies every HTTP call the bot makes (an interaction's answer by its
callback type, a message sent or edited in a DM or a server channel, an interaction's
original response edited, ...) and sums, per kind, what the call carried: payload bytes,
uploaded files, attachments kept, and its components (rows, buttons, selects, select
options). The bench reports it per committed move (``traffic``), which is the recipe the
floor (`tools.bench_floor`) reproduces.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

__all__ = ["ANSWER_KINDS", "Traffic", "kind_of", "shape_of", "traffic_lines"]

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
