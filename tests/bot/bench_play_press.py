"""What one Play press costs: table loads, document parses, match parses and saves, and
wall time per press (issue 11). Not a test (no timing assertion): run it by hand, from a
checkout's root, e.g. ``python tests/bot/bench_play_press.py 40``.

It plays whole tricks with four humans through their DM panels (Quick plays, then Play)
and counts, during each Play click and the publishing it starts, the calls of
`Store.load_table`/`table_in_channel`, `TableDoc.from_dict`, `Match.from_dict` and
`Store.save_table` (the names are the same in the release before the layering)."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import botkit
from botkit import by_panel, components, find, seats_to_act, world

from bot.core.table import TableDoc
from bot.storage import Store
from engine.game import Match, Phase

COUNTS: Counter[str] = Counter()


def count(owner: Any, name: str, label: str) -> None:
    original = getattr(owner, name)
    func = getattr(original, "__func__", original)
    is_class = isinstance(owner.__dict__.get(name), classmethod)

    if is_class:
        def wrapped_cls(cls: Any, *args: Any, **kwargs: Any) -> Any:
            COUNTS[label] += 1
            return func(cls, *args, **kwargs)
        setattr(owner, name, classmethod(wrapped_cls))
    elif asyncio.iscoroutinefunction(func):
        async def wrapped_async(self: Any, *args: Any, **kwargs: Any) -> Any:
            COUNTS[label] += 1
            return await func(self, *args, **kwargs)
        setattr(owner, name, wrapped_async)


async def main(presses: int) -> None:
    botkit.SETTLE = 60.0
    count(Store, "load_table", "load")
    count(Store, "table_in_channel", "load")
    count(Store, "save_table", "save")
    count(TableDoc, "from_dict", "doc parse")
    count(Match, "from_dict", "match parse")
    per_press: list[Counter[str]] = []
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with world(Path(tmp), humans=4) as w:
            await w.open_table(4, turn_timer=0)
            await w.start()
            while len(times) < presses:
                match = await w.match()
                if match.phase is not Phase.PLAYING:
                    doc = await w.doc()
                    humans = [s for s in seats_to_act(match) if doc.seat(s).user_id]
                    if not humans:
                        break
                    await by_panel(w, humans[0])
                    continue
                seat = seats_to_act(match)[0]
                user = await w.user_of(seat)
                panel = w.dm_panel(user)
                if match.public_view().trick is None:
                    select = next(c for c in components(panel) if ":sel:" in c.custom_id)
                    await user.user.select(panel, [select.options[0].value],
                                           custom_id=select.custom_id)
                else:
                    quick = find(panel, "quick")
                    await user.user.select(panel, [quick.options[0].value],
                                           custom_id=quick.custom_id)
                panel = w.dm_panel(user)
                play = find(panel, "play")
                await w.bot.publisher.idle()
                COUNTS.clear()
                start = time.perf_counter()
                await user.user.click(panel, custom_id=play.custom_id)
                await w.bot.publisher.idle()
                times.append(time.perf_counter() - start)
                per_press.append(Counter(COUNTS))
    for label in ("load", "doc parse", "match parse", "save"):
        values = [c[label] for c in per_press]
        print(f"{label:12} per press: median {statistics.median(values):g}, "
              f"min {min(values)}, max {max(values)}")
    print(f"time per press (click + publishing, SimCord, {len(times)} presses): "
          f"median {statistics.median(times) * 1000:.0f} ms, "
          f"p90 {sorted(times)[int(len(times) * 0.9)] * 1000:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30))
