"""`python -m bot.render.bench`: median render times of the demo position.

Each run draws and encodes the picture afresh (the cached PNG of the same input is dropped
first); card faces, fonts, rendered text and the felt stay cached, as in a running bot.
Targets: a hand ≤ 15 ms, the table ≤ 25 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.render.demo import SEATS, positions
from bot.render.hand import hand_png, render_hand
from bot.render.summary import render_summary
from bot.render.table import render_table, table_png


def median_ms(render: Callable[[], bytes], runs: int, *, fresh: bool = True
              ) -> tuple[float, int]:
    """Median wall time in ms over `runs` calls after one warm-up, and the PNG size.
    `fresh`: drop the cached PNGs before each call (draw and encode every time)."""
    size = len(render())
    times = []
    for _ in range(runs):
        if fresh:
            hand_png.cache_clear()
            table_png.cache_clear()
        start = time.perf_counter()
        render()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, size


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.render.bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)
    pos = positions()
    settled = pos.settled.public_view()
    cases: dict[str, Callable[[], bytes]] = {
        "hand (declaring)": lambda: render_hand(pos.declaring),
        "hand (burying, 33 cards)": lambda: render_hand(pos.burying),
        "hand (playing, 2 selected)": lambda: render_hand(pos.playing,
                                                          selected=pos.playing.hand[:2]),
        "table (trick in progress)": lambda: render_table(pos.playing.public, SEATS),
        "summary": lambda: render_summary(settled, SEATS),
    }
    for name, render in cases.items():
        ms, size = median_ms(render, args.runs)
        print(f"{name:28s} median {ms:6.2f} ms   {size / 1024:5.1f} KB")
    ms, _ = median_ms(cases["table (trick in progress)"], args.runs, fresh=False)
    print(f"{'table again (cached PNG)':28s} median {ms:6.2f} ms")


if __name__ == "__main__":
    main()
