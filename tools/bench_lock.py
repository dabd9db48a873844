"""``python -m tools.bench_lock``: what another process's write lock costs the tables.

1. Baseline: sequential moves (load the table, save it with one appended action), their
   latency and the event loop's own CPU per operation; then every table moving at once.
2. Another process takes the write lock (``BEGIN IMMEDIATE`` + a pending write) and holds
   it for ``--hold`` seconds. Meanwhile reads at other tables run back to back, and a
   write at another table starts every ``--write-every`` seconds; each one's latency and
   outcome (saved, or `StorageBusy`) is printed.

Only the public `Store` API is used, so the same script measures an older release
(``PYTHONPATH=old-checkout python -m tools.bench_lock``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage import (
    HandAction,
    HandRecord,
    MatchRecord,
    Mode,
    StorageError,
    Store,
    StoredTable,
)

LOCKER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE guilds SET updated_at = updated_at + 1")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


@dataclass
class Samples:
    """Latencies (seconds) of one kind of operation."""

    name: str
    seconds: list[float] = field(default_factory=list)

    def line(self) -> str:
        s = sorted(self.seconds)
        if not s:
            return f"{self.name:<28} none"
        p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
        return (f"{self.name:<28} n={len(s):<5} p50={statistics.median(s) * 1000:8.2f} ms"
                f"  p99={p99 * 1000:8.2f} ms  max={s[-1] * 1000:8.2f} ms")


def doc_of(size: int, n: int) -> dict[str, object]:
    return {"phase": "play", "n": n, "hand": {"cards": ["AS", "10H", "BJ"] * (size // 30)}}


async def setup(store: Store, tables: int, doc_size: int) -> list[StoredTable]:
    out = []
    for i in range(tables):
        t = await store.create_table(1, 1000 + i, 1, doc_of(doc_size, 0))
        players = (1 + 4 * i, 2 + 4 * i, 3 + 4 * i, 4 + 4 * i)
        match = MatchRecord(match_key=f"m{t.id}", table_id=t.id, guild_id=1,
                            channel_id=1000 + i, players=players, mode=Mode.TEAMS,
                            levels=("2",) * 4)
        hand = HandRecord(hand_key=f"h{t.id}", match_key=f"m{t.id}", table_id=t.id,
                          hand_no=1, seed=i, level="2", players=players, mode=Mode.TEAMS)
        out.append(await store.save_table(t.id, t.version, doc_of(doc_size, 1),
                                          status="playing", match=match, hand=hand))
    return out


async def move(store: Store, table_id: int, doc_size: int) -> StoredTable:
    """One accepted move as the bot makes it: load, then save with one action."""
    t = await store.load_table(table_id)
    assert t is not None
    return await store.save_table(
        table_id, t.version, doc_of(doc_size, t.version),
        actions=[HandAction(f"h{table_id}", t.version, {"type": "play", "cards": ["AS"]})])


async def baseline(store: Store, tables: Sequence[StoredTable], moves: int,
                   doc_size: int) -> list[str]:
    loads, saves = Samples("load_table (no lock)"), Samples("save_table (no lock)")
    cpu0, wall0 = time.thread_time(), time.perf_counter()
    for i in range(moves):
        table_id = tables[i % len(tables)].id
        start = time.perf_counter()
        t = await store.load_table(table_id)
        loads.seconds.append(time.perf_counter() - start)
        assert t is not None
        start = time.perf_counter()
        await store.save_table(
            table_id, t.version, doc_of(doc_size, t.version),
            actions=[HandAction(f"h{table_id}", t.version, {"type": "play", "cards": ["AS"]})])
        saves.seconds.append(time.perf_counter() - start)
    cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
    return [loads.line(), saves.line(),
            f"{'moves (load + save)':<28} {moves / wall:8.0f} per second sequentially;"
            f" event-loop CPU {cpu / moves * 1e6:7.0f} us per move"]


async def concurrent(store: Store, tables: Sequence[StoredTable], rounds: int,
                     doc_size: int) -> list[str]:
    moves = Samples(f"move, {len(tables)} tables at once")
    cpu0, wall0 = time.thread_time(), time.perf_counter()

    async def play(table_id: int) -> None:
        for _ in range(rounds):
            start = time.perf_counter()
            await move(store, table_id, doc_size)
            moves.seconds.append(time.perf_counter() - start)

    await asyncio.gather(*(play(t.id) for t in tables))
    cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
    n = len(moves.seconds)
    return [moves.line(), f"{'':<28} {n / wall:8.0f} moves per second;"
            f" event-loop CPU {cpu / n * 1e6:7.0f} us per move"]


async def under_lock(store: Store, path: Path, tables: Sequence[StoredTable], hold: float,
                     write_every: float, doc_size: int) -> list[str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", LOCKER, str(path), str(hold), stdout=subprocess.PIPE)
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b"locked\n"
    locked_at = time.perf_counter()
    reads = Samples(f"reads during {hold:g} s lock")
    writes: list[str] = []

    async def reader() -> None:
        i = 0
        while time.perf_counter() - locked_at < hold:
            start = time.perf_counter()
            await store.load_table(tables[i % len(tables)].id)
            middle = time.perf_counter()
            await store.user_settings(i)
            reads.seconds += [middle - start, time.perf_counter() - middle]
            i += 1
            await asyncio.sleep(0.005)

    async def writer(k: int) -> None:
        await asyncio.sleep(k * write_every)
        start = time.perf_counter()
        try:
            await move(store, tables[k % len(tables)].id, doc_size)
            outcome = "saved"
        except StorageError as error:
            outcome = type(error).__name__
        except Exception as error:  # an older release's raw sqlite3 error
            outcome = f"{type(error).__name__}: {error}"
        end = time.perf_counter()
        writes.append(f"  move at another table, started {start - locked_at:4.1f} s into the "
                      f"lock: {outcome} after {end - start:5.2f} s")

    count = int(hold / write_every + 1e-9) + 1
    await asyncio.gather(reader(), *(writer(k) for k in range(count)))
    await proc.wait()
    return [reads.line(), *sorted(writes)]


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.database or Path(tmp) / "bench.sqlite3")
        store = await Store.open(path)
        try:
            tables = await setup(store, args.tables, args.doc_size)
            print(f"{args.tables} tables, documents of ~{args.doc_size} bytes, {path}")
            for line in await baseline(store, tables, args.moves, args.doc_size):
                print(line)
            rounds = max(1, args.moves // len(tables))
            for line in await concurrent(store, tables, rounds, args.doc_size):
                print(line)
            for line in await under_lock(store, path, tables, args.hold, args.write_every,
                                         args.doc_size):
                print(line)
        finally:
            await store.close()


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench_lock",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--hold", type=float, default=4.0, help="seconds the lock is held")
    parser.add_argument("--write-every", type=float, default=0.5,
                        help="seconds between writes started during the lock")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=500, help="baseline moves")
    parser.add_argument("--doc-size", type=int, default=6000, help="bytes per table document")
    parser.add_argument("--database", help="file to use (default: a temporary one)")
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
