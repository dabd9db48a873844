"""``python -m tools.bench_store``: a move's save on each storage backend, side by side.

One writer saves one table move after move, as the bot does per accepted move: a real
table document (`tools.bench_floor.FloorStore`: seats, options, the engine's match after
a random agent's move) through `Store.save_table` (one transaction with the version's
compare-and-set). Reported per backend: the save's p50 and p99 (ms, from the call to its
answer on the event loop) and saves a second. SQLite on a file in a temporary folder as
the bot opens it (WAL, ``synchronous = NORMAL``); PostgreSQL on a throwaway local server
over its Unix socket (`tools.pg_server`, ``fsync`` on unless ``--no-fsync``) or on
``--database-url``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.storage import Store
from tools.bench_floor import FloorStore, engine_steps


async def measure(target: str | Path, moves: int, warmup: int, seed: int) -> dict[str, Any]:
    """Save `moves` moves (after `warmup` unmeasured ones) of one table at `target`."""
    floor = FloorStore(await Store.open(target))
    try:
        await floor.add(1, 1, 10, [101, 102, 103, 104])
        steps = engine_steps(seed)
        matches = [next(steps)[0] for _ in range(warmup + moves)]
        for match in matches[:warmup]:
            await floor.commit(1, match)
        times: list[float] = []
        started = time.perf_counter()
        for match in matches[warmup:]:
            t0 = time.perf_counter()
            await floor.commit(1, match)
            times.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - started
    finally:
        await floor.close()
    times.sort()
    return {"backend": floor.store.kind, "moves": moves,
            "p50_ms": statistics.median(times) * 1000,
            "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
            "saves_per_s": moves / elapsed}


async def run(moves: int, warmup: int, seed: int, url: str | None, fsync: bool
              ) -> list[dict[str, Any]]:
    from tools.pg_server import start_server

    results = []
    with tempfile.TemporaryDirectory(prefix="tractor-bench-store-") as folder:
        results.append(await measure(Path(folder) / "bench.sqlite3", moves, warmup, seed))
    server = None
    if url is None:
        server = start_server(fsync=fsync)
        url = server.new_database("bench")
    try:
        results.append(await measure(url, moves, warmup, seed))
    finally:
        if server is not None:
            server.stop("immediate")
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_store", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000, help="measured saves (2000)")
    parser.add_argument("--warmup", type=int, default=200, help="unmeasured saves first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="an existing empty PostgreSQL database")
    parser.add_argument("--no-fsync", action="store_true",
                        help="the throwaway server without fsync (as the tests run it)")
    args = parser.parse_args(argv)
    results = asyncio.run(run(args.moves, args.warmup, args.seed, args.database_url,
                              not args.no_fsync))
    print(f"{'backend':10} {'moves':>6} {'p50 ms':>8} {'p99 ms':>8} {'saves/s':>8}")
    for r in results:
        print(f"{r['backend']:10} {r['moves']:>6} {r['p50_ms']:>8.3f} {r['p99_ms']:>8.3f}"
              f" {r['saves_per_s']:>8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
