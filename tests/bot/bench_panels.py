"""What building the panels costs, on the seeded positions of tests/bot/panel_positions.py
(issue 16): microseconds of thread CPU per hand panel (text and components JSON; the Quick
plays computed beforehand, the picture not drawn) by phase, and per table message. Not a
test (no timing assertion): run it by hand from a checkout's root, ``PYTHONPATH=. python
tests/bot/bench_panels.py [passes]``; the best pass is reported (thread CPU, so another
process's load counts little: compare runs made one after the other)."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from typing import Any

from panel_golden import plays_for
from panel_positions import positions

from bot.ui.panels import compose_panel, table_text, table_view


def main(passes: int) -> None:
    panels: list[tuple[str, Any, Any, int, list[str], Any]] = []
    tables: dict[str, Any] = {}
    for position in positions():
        match = position.doc.get_match()
        assert match is not None
        view = match.view_for(position.seat)
        panels.append((str(match.phase), position.doc, view, position.seat,
                       list(position.selected), plays_for(position, "en")))
        tables.setdefault(position.label.rsplit("/", 1)[0], position.doc)
    best: dict[str, float] = defaultdict(lambda: float("inf"))
    counts: dict[str, int] = defaultdict(int)
    for _ in range(passes):
        spent: dict[str, float] = defaultdict(float)
        counts.clear()
        for phase, doc, view, _seat, selected, plays in panels:
            start = time.thread_time()
            _, components = compose_panel(doc, 7, view, selected, "en", plays)
            if components is not None:
                components.to_components()  # as discord.py sends them
            spent[phase] += time.thread_time() - start
            counts[phase] += 1
        for doc in tables.values():
            match = doc.get_match()
            start = time.thread_time()
            table_text(doc, None if match is None else match.public_view())
            table_view(doc, 7, doc.locale).to_components()
            spent["table message"] += time.thread_time() - start
            counts["table message"] += 1
        for name, seconds in spent.items():
            best[name] = min(best[name], seconds)
    for name in sorted(best):
        print(f"{name:>15}: {best[name] / counts[name] * 1e6:8.1f} µs  (n={counts[name]})")
    hands = [k for k in best if k != "table message"]
    each = sum(best[k] for k in hands) / sum(counts[k] for k in hands)
    print(f"{'all panels':>15}: {each * 1e6:8.1f} µs")


if __name__ == "__main__":
    main(int(sys.argv[1]) if sys.argv[1:] else 5)
