"""How long interactions wait for their acknowledgement while another process holds the
database's write lock (issue 15 item 3). Not a test (it measures wall time): run it by
hand from a checkout's root, e.g. ``python tests/bot/bench_lock_ack.py --groups 10``.

SimCord drives the real bot. ``--groups`` groups of tables are made ready
(tests/bot/lock_scenario.py); then another process takes the write lock
(``BEGIN IMMEDIATE`` and a pending write) on the bot's database file for ``--hold``
seconds, and every group's five interactions (``/tractor join``, ``/tractor rules``, a
Play press, the Score button of a table message, ``/tractor stats``) are sent at moments
spread over the first ``--spread`` seconds of the lock. For each: the time from sending
it to its first response (defer or answer), and for the writes whether they got the
translated "try again" or went through. Prints p50/p99/max per kind and over all.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import botkit
import pytest
from botkit import reply_texts, world
from lock_scenario import KINDS, WRITES, Acks, make_group, outcome

from bot.i18n import t
from tools.bench_lock import LOCKER  # another process holding the write lock


def line(name: str, seconds: list[float]) -> str:
    s = sorted(seconds)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return (f"{name:<8} n={len(s):<4} p50={statistics.median(s) * 1000:7.0f} ms"
            f"  p99={p99 * 1000:7.0f} ms  max={s[-1] * 1000:7.0f} ms")


async def run(groups: int, hold: float, spread: float) -> None:
    botkit.SETTLE = 60.0
    acks = Acks()
    patch = pytest.MonkeyPatch()
    with tempfile.TemporaryDirectory() as tmp:
        async with world(Path(tmp), humans=1, users=1) as w:
            made = [await make_group(w.env, w.database, w.guild, i) for i in range(groups)]
            await w.bot.publisher.idle()
            acks.install(patch)
            jobs = [(g, kind) for g in made for kind in KINDS]
            before = {id(g): await g.state() for g in made}
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(w.database), str(hold),
                stdout=subprocess.PIPE)
            assert proc.stdout is not None
            assert await proc.stdout.readline() == b"locked\n"
            locked_at = time.perf_counter()
            started: dict[int, float] = {}
            results: dict[int, Any] = {}

            async def sent_only(**kwargs: Any) -> None:
                """SimCord waits for each interaction to settle and refuses overlapping
                operations: here each one is only sent, and all settle together below."""
            unsettled = pytest.MonkeyPatch()
            unsettled.setattr(w.env, "_settle_internal", sent_only)
            for index, (group, kind) in enumerate(jobs):
                action = group.action(kind)
                delay = locked_at + spread * index / len(jobs) - time.perf_counter()
                if delay > 0:
                    await asyncio.to_thread(time.sleep, delay)  # real time, not SimCord's
                user_id = group.users[kind].id
                started[user_id] = time.perf_counter()
                results[user_id] = await action()
            unsettled.undo()
            await w.env.settle(timeout=60)
            await proc.wait()
            await w.bot.publisher.idle()
            patch.undo()
            try_again = t("error.try_again", "en")
            by_kind: dict[str, list[float]] = {kind: [] for kind in KINDS}
            outcomes: dict[str, list[str]] = {kind: [] for kind in WRITES}
            unanswered = 0
            for group, kind in jobs:
                user_id = group.users[kind].id
                if user_id not in acks.first:
                    unanswered += 1
                    continue
                by_kind[kind].append(acks.first[user_id] - started[user_id])
                if kind in WRITES:
                    into = started[user_id] - locked_at
                    after = await group.state()
                    changed = after[WRITES.index(kind)] != before[id(group)][WRITES.index(kind)]
                    said = outcome(results[user_id], try_again)
                    if said == "done":
                        said = "no try again, table changed" if changed else "refused: " + "|".join(
                            reply_texts(results[user_id]))[:80]
                    elif changed:
                        said += " BUT CHANGED"
                    outcomes[kind].append(f"{said} (sent {into:3.1f} s in)")
    print(f"{groups} groups ({len(jobs)} interactions), write lock held {hold:g} s by "
          f"another process, interactions sent over its first {spread:g} s")
    print("time to acknowledgement (first response):")
    for kind in KINDS:
        print("  " + line(kind, by_kind[kind]))
    print("  " + line("all", [s for v in by_kind.values() for s in v]))
    print(f"  never acknowledged: {unanswered}")
    for kind in WRITES:
        counts: dict[str, int] = {}
        for text in outcomes[kind]:
            counts[text.split(" (")[0]] = counts.get(text.split(" (")[0], 0) + 1
        print(f"{kind} outcomes: {counts}: " + ", ".join(sorted(outcomes[kind])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--hold", type=float, default=4.0)
    parser.add_argument("--spread", type=float, default=3.5)
    args = parser.parse_args()
    asyncio.run(run(args.groups, args.hold, args.spread))


if __name__ == "__main__":
    main()
