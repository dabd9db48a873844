"""`python -m tools.bench_render`: median render times of the demo positions.

Each run draws and encodes the picture afresh (the cached PNG of the same input is dropped
first); card faces, fonts, rendered text, the felt and the N-seat board stay cached, as in a
running bot. The cases take turns run by run, so a busy machine slows them alike.
Targets: a hand ≤ 15 ms, the table ≤ 25 ms (four seats); Finding Friends tables for 6 and
8 seats (a trick in progress, and every seat's tractor on the table) are timed beside them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.render.hand import hand_png, render_hand
from bot.render.summary import render_summary
from bot.render.table import render_table, table_png
from tools.demo_friends import FriendsPositions, eight_seats, six_seats
from tools.demo_positions import SEATS, positions


def _fresh() -> None:
    hand_png.cache_clear()
    table_png.cache_clear()


def median_ms(render: Callable[[], bytes], runs: int, *, fresh: bool = True
              ) -> tuple[float, int]:
    """Median wall time in ms over `runs` calls after one warm-up, and the PNG size.
    `fresh`: drop the cached PNGs before each call (draw and encode every time)."""
    size = len(render())
    times = []
    for _ in range(runs):
        if fresh:
            _fresh()
        start = time.perf_counter()
        render()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, size


def interleaved_ms(cases: dict[str, Callable[[], bytes]], runs: int
                   ) -> dict[str, tuple[float, int]]:
    """`median_ms` of every case, the cases taking turns run by run, so that a busy machine
    slows them alike (their ratios stay honest)."""
    sizes = {name: len(render()) for name, render in cases.items()}
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, render in cases.items():
            _fresh()
            start = time.perf_counter()
            render()
            times[name].append(time.perf_counter() - start)
    return {name: (statistics.median(times[name]) * 1000, sizes[name]) for name in cases}


def _friends_cases(players: int, f: FriendsPositions) -> dict[str, Callable[[], bytes]]:
    """The cases of a Finding Friends table of `players` seats."""
    return {
        f"{players} seats: table": lambda: render_table(f.playing, f.seats),
        f"{players} seats: table, full": lambda: render_table(f.full_trick, f.seats),
        f"{players} seats: hand (bury)": lambda: render_hand(f.burying),
        f"{players} seats: summary": lambda: render_summary(f.summary, f.seats),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_render", description=__doc__)
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
    for players, friends in ((6, six_seats()), (8, eight_seats())):
        cases |= _friends_cases(players, friends)
    for name, (ms, size) in interleaved_ms(cases, args.runs).items():
        print(f"{name:30s} median {ms:6.2f} ms   {size / 1024:5.1f} KB")
    ms, _ = median_ms(cases["table (trick in progress)"], args.runs, fresh=False)
    print(f"{'table again (cached PNG)':30s} median {ms:6.2f} ms")


if __name__ == "__main__":
    main()
