"""``python -m tools.bench_inbox``: how soon the owner of a shard starts applying a forwarded
click, waking by polling (before issue 36) and by PostgreSQL ``NOTIFY``, side by side.

A receiving cluster queues DM clicks for shard 1 (`bot.storage.cluster.ClusterStore.put`,
one transaction each, at a random pace: gaps uniform in 0..2×``--gap`` ms); the owner's
real serve loop (`bot.services.inbox.Inbox.serve`, shard 1's lease held) claims and applies
them. Measured per click: from the queuing transaction's commit (its answer on the
receiver's loop, which comes after the commit, so the figure is if anything low by that
hop) to the owner's handler starting. Reported per way of waking: p50, p90, p99, max (ms)
and the owner's claims a second (a write transaction each) while clicks come and while
none does (`IDLE` seconds after the last). The two ways take turns,
``--rounds`` rounds each, each round on a fresh database, so a busy machine weighs on both.
PostgreSQL on a throwaway local server over its Unix socket (`tools.pg_server`) or on
``--database-url`` (each round uses new tables there: give an empty database).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.services.inbox import Inbox
from bot.storage import Store
from bot.storage.cluster import ClusterStore, InboxItem

WAYS = {"polling": False, "notify": True}
"""Each way of waking: whether the owner listens for notifications."""
SHARD = 1
LEASE = 3600.0
IDLE = 3.0
"""Seconds the owner's idle claims are counted, after the round's last click."""


class Counted(ClusterStore):
    """The owner's store, counting its claims."""

    claims = 0

    async def claim(self, owner: str, shards: Mapping[int, int], *, limit: int = 50,
                    retry_after: float = 30.0) -> list[InboxItem]:
        self.claims += 1
        return await super().claim(owner, shards, limit=limit, retry_after=retry_after)


async def round_of(url: str, notified: bool, clicks: int, gap: float,
                   rng: random.Random) -> tuple[list[float], float, float]:
    """One round: the latencies (s) of `clicks` forwarded clicks, and the owner's claims a
    second while they came and then idle."""
    async with await Store.open(url) as here, await Store.open(url) as there:
        receiving, owning = ClusterStore(here), Counted(there)
        epoch = await owning.acquire(SHARD, "owner", LEASE)
        assert epoch is not None
        committed: dict[int, float] = {}
        started: dict[int, float] = {}
        all_in = asyncio.Event()

        async def handler(item: InboxItem) -> str:
            started[item.interaction_id] = time.perf_counter()
            if len(started) == clicks:
                all_in.set()
            return "done"

        inbox = Inbox(owning, notified=notified)
        server = asyncio.create_task(inbox.serve("owner", lambda: {SHARD: epoch}, handler))
        try:
            async with asyncio.timeout(60):
                while notified and (inbox.listener is None or not inbox.listener.listening):
                    await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            owning.claims = 0
            begun = time.perf_counter()
            for n in range(1, clicks + 1):
                await asyncio.sleep(rng.uniform(0, 2 * gap))
                await receiving.put(n, SHARD, 7, {"n": n})
                committed[n] = time.perf_counter()
            async with asyncio.timeout(60):
                await all_in.wait()
            rate = owning.claims / (time.perf_counter() - begun)
            owning.claims = 0
            await asyncio.sleep(IDLE)
            idle = owning.claims / IDLE
        finally:
            server.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await server
        return [started[n] - committed[n] for n in committed], rate, idle


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def run(url: str | None, clicks: int, gap: float, rounds: int, seed: int
              ) -> list[dict[str, Any]]:
    from tools.pg_server import start_server

    server = None
    if url is None:
        server = start_server()
    rng = random.Random(seed)
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    claims: dict[str, list[float]] = {way: [] for way in WAYS}
    idle: dict[str, list[float]] = {way: [] for way in WAYS}
    try:
        for number in range(rounds):
            for way, notified in WAYS.items():
                target = url if server is None else server.new_database(f"inbox{number}{way}")
                assert target is not None
                latencies, claimed, quiet = await round_of(target, notified, clicks, gap,
                                                           rng)
                times[way] += latencies
                claims[way].append(claimed)
                idle[way].append(quiet)
    finally:
        if server is not None:
            server.stop("immediate")
    return [{"way": way, "clicks": len(values),
             "p50_ms": statistics.median(values) * 1000,
             "p90_ms": quantile(values, 0.90) * 1000,
             "p99_ms": quantile(values, 0.99) * 1000,
             "max_ms": max(values) * 1000,
             "claims_per_s": statistics.mean(claims[way]),
             "idle_claims_per_s": statistics.mean(idle[way])} for way, values in times.items()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_inbox", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=200, help="clicks a round (200)")
    parser.add_argument("--gap", type=float, default=50.0,
                        help="mean milliseconds between two clicks (50)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each way (2)")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--database-url", default=None,
                        help="an empty PostgreSQL database (default: a throwaway server)")
    args = parser.parse_args(argv)
    rows = asyncio.run(run(args.database_url, args.clicks, args.gap / 1000, args.rounds,
                           args.seed))
    print("owner-side latency of a forwarded click (queued → owner applying), PostgreSQL")
    print(f"{'way':<8} {'clicks':>6} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7}"
          f" {'claims/s':>8} {'idle claims/s':>13}")
    for row in rows:
        print(f"{row['way']:<8} {row['clicks']:>6} {row['p50_ms']:>7.1f} {row['p90_ms']:>7.1f}"
              f" {row['p99_ms']:>7.1f} {row['max_ms']:>7.1f} {row['claims_per_s']:>8.1f}"
              f" {row['idle_claims_per_s']:>13.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
