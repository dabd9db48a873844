"""``python -m tools.soak_cluster``: several cluster processes on one database, killed,
frozen and stopped while their tables play (issue 29).

Each worker process holds a range of shards by lease
(`bot.services.ownership.ShardLeases`) and drives its shards' tables through the real
`TableService` (the computer playing every seat, timers, the versioned and fenced save; no
Discord). Every committed save is appended to the worker's log (``table version shard
epoch owner at``) once the save returned: the acknowledged moves. The coordinator kills
one worker with SIGKILL mid-hand ``--kills`` times (a replacement takes its shards over
once the lease ran out), freezes another with SIGSTOP past its lease (sent by the worker
to itself between two writes, asked by SIGUSR1: SQLite has one write lock for the whole
file, which a process frozen inside a write would keep from everyone) (a replacement takes
over; woken, it must find itself fenced and exit with status 3), stops a third with
SIGTERM (graceful: the replacement takes over at once), then verifies:

- 0 acknowledged saves missing (a table's stored version is at least every logged one);
- 0 versions committed twice; 0 commits by a stale owner (per table, the epochs of its
  commits never go back, and each (shard, epoch) is one owner's in the lease log);
- 0 shards with two owners (each shard's epochs grow by one per take-over, one owner each);
- every hand's action sequence numbers 0..n-1 (no gap, no duplicate), every settled hand
  replays to its stored result;
- the ratings recomputed from the hands equal the stored ones: every settled hand of a
  ranked match rated again in order by `bot.storage.ratings.record_hand` (what a save
  that settles a hand runs) into a fresh database, its ``ratings`` and ``pair_ratings``
  compared row by row with the stored ones (the tables' seats are simulated people on
  autopilot, distinct per table, so their matches are ranked; computer seats are not
  rated);
- the woken process refused and gone (exit status 3);
- forwarded ``Type…`` submissions between the workers (`tools.soak_inbox`, woken by
  ``NOTIFY`` on PostgreSQL): none applied twice, lost, or answered untruly; the soak ends
  with a quiet spell in which every queued one is answered.

It prints the take-over times (crash and graceful) and moves a second, and exits 1 when a
check fails. The database is SQLite (one file shared by the processes, the database's
clock being the machine's) or, with ``--database postgresql://…``, an empty PostgreSQL
database; ``--short`` is the version `make test` runs. ``--measure SECONDS`` plays without
faults and reports only throughput and save latency (``--processes 1`` holds every shard
in one process, ``--processes 2`` splits them in halves).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import itertools
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.levels import level_of
from bot.core.table import Seat
from bot.present.replay import _matches_record, replay_frames
from bot.runtime.config import Config, shard_of
from bot.runtime.offload import Workers
from bot.services.autopilot import Autopilot
from bot.services.ownership import ShardLeases, owner_id
from bot.services.repository import TableRepository
from bot.services.tables import TableService, Tx
from bot.storage import HandRecord, Store, history, ratings
from bot.storage.cluster import ClusterStore, Fence, StaleOwner
from tools import soak_inbox

EXIT_FENCED = 3
INSIDE: contextvars.ContextVar[str] = contextvars.ContextVar("soak_inside", default="")
"""What the write under way is (``save``, ``renewal``): where a freeze inside a transaction
lands (`freeze_inside`)."""
WOKEN_EXIT = 120.0
"""Seconds a woken former owner is given to find itself fenced and exit: a bound on a wait
for an event, not a target (past it, its exit status counts as -1, a failure, and the
result carries its tasks' stacks, `DUMP_SIGNAL`)."""
DUMP_SIGNAL = signal.SIGPWR
"""Asks a worker to write every task's stack and its leases' state (`STACKS`)."""
STACKS = ".stacks"
DUMP_POLLS = 100
"""Tenths of a second the coordinator waits for a stuck worker's stacks file."""
READY_WITHIN = 120.0
"""Seconds a worker is given to hold its shards and say so (a bound on an event, not a
target): past it the soak fails instead of waiting for good."""
FREEZE_INSIDE = {"save": signal.SIGUSR2, "renewal": signal.SIGHUP}
"""The signal asking a worker to stop itself inside its next such transaction."""


def worker_config() -> Config:
    return Config(action_delay=0.01, edit_interval=0.0, hand_pause=0.05, start_delay=0.0,
                  forced_pause=0.0, computer_player="random", workers=0, restart_grace=0.2)


def headless_service(repository: TableRepository, config: Config) -> TableService:
    """The table service as a cluster runs it, without Discord: nothing published, the
    computers deciding in this process."""
    autopilot = Autopilot(repository.store, config, clock=time.time, workers=Workers(0))
    return TableService(repository, config, publish=lambda *_: None, clock=time.time,
                        autopilot=autopilot)


def guild_on(shard: int, count: int, n: int) -> int:
    return (1 << 22) * (count * (n + 1) + shard)


def player_id(table: int, seat: int) -> int:
    """The simulated person in `seat` of the `table`-th table (a Discord-like user id)."""
    return 10**6 + 10 * table + seat


# ---- a worker (one cluster process) -----------------------------------------------------


class MarkedRenewals(ClusterStore):
    """The leases' store, its renewals marked (`INSIDE`) for `freeze_inside`."""

    async def renew(self, owner: str, epochs: Any, ttl: float) -> bool:
        token = INSIDE.set("renewal")
        try:
            return await super().renew(owner, epochs, ttl)
        finally:
            INSIDE.reset(token)


def freeze_inside(store: Store, loop: asyncio.AbstractEventLoop) -> None:
    """`FREEZE_INSIDE`'s signals: stop this process (SIGSTOP) inside its next table save's
    transaction (after the fence check and the UPDATE, before COMMIT) or lease renewal's
    (its lease rows updated, not committed): what a random pause does at the worst time."""
    armed: set[str] = set()
    engine: Any = store._db
    write = engine.write

    async def traced(job: Any, **kwargs: Any) -> Any:
        where = INSIDE.get()
        if where in armed:
            armed.discard(where)
            job = _stopping(job)
        return await write(job, **kwargs)

    engine.write = traced
    for where, sig in FREEZE_INSIDE.items():
        loop.add_signal_handler(sig, armed.add, where)


def _stopping(job: Any) -> Any:
    stopped: list[bool] = []

    def stop_inside(db: Any) -> Any:
        result = job(db)
        if not stopped:  # once: a re-run after waking does not stop again
            stopped.append(True)
            os.kill(os.getpid(), signal.SIGSTOP)
        return result
    return stop_inside



async def run_worker(db: str, name: str, shards: list[int], count: int, logdir: str,
                     ttl: float) -> int:
    started = time.time()
    owner = owner_id(name)
    fence = Fence(owner, count)  # the store's and the leases', given to both at construction
    store = await Store.open(db, write_timeout=10.0, fence=fence)
    stop = asyncio.Event()
    status = 0

    def fenced(reason: str) -> None:
        nonlocal status
        status = EXIT_FENCED
        stop.set()

    async def regained() -> None:  # the database was out of reach past the lease
        await service.restore(leases.owns)

    leases = ShardLeases(MarkedRenewals(store), owner=owner, shard_count=count,
                         shard_ids=shards, ttl=ttl, on_fenced=fenced, on_regained=regained,
                         fence=fence)
    repository = TableRepository(store)
    fd = os.open(Path(logdir) / f"{owner.replace('/', '_')}.log",
                 os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    plain_save = repository.save

    async def save(stored: Any, doc: Any, **changes: Any) -> Any:
        shard = shard_of(stored.guild_id, count)
        epoch = leases.fence.epochs.get(shard, -1)
        begun = time.perf_counter()
        token = INSIDE.set("save")
        try:
            saved = await plain_save(stored, doc, **changes)
        except StaleOwner:
            os.write(fd, f"refused {stored.id} {shard} {epoch} {owner}\n".encode())
            raise
        finally:
            INSIDE.reset(token)
        took = (time.perf_counter() - begun) * 1000
        after = leases.fence.epochs.get(shard, -1)  # held again meanwhile: a new epoch
        if changes.get("status") == "lobby":  # its match is over: the next one
            matches.add(loop.create_task(next_match(saved.id)))
        os.write(fd, f"{saved.id} {saved.version} {shard} {epoch} {owner} {time.time()} "
                     f"{took:.2f} {after}\n".encode())
        return saved

    matches: set[asyncio.Task[None]] = set()

    async def next_match(table_id: int) -> None:
        with contextlib.suppress(Exception):  # fenced or stopping meanwhile
            await play_on(service, table_id)
        matches.discard(asyncio.current_task())

    repository.save = save  # type: ignore[method-assign]
    service = headless_service(repository, worker_config())
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)

    def freeze() -> None:
        """SIGUSR1: stop this process (SIGSTOP) between two writes. Frozen inside a write,
        it would hold SQLite's one write lock and stall every cluster; on PostgreSQL the
        server ends such a session (idle_in_transaction_session_timeout) and only the
        rows it locked wait."""
        db: Any = store._db  # its writer thread (`bot.storage.threads`), outside any
        # transaction: the Engine protocol does not name the thread pools
        freezing.append(loop.create_task(
            db._submit(db._write_pool, os.kill, os.getpid(), signal.SIGSTOP)))

    def dump() -> None:
        """`DUMP_SIGNAL`: every task's stack and the leases' state, into the log folder
        (written aside, then renamed: the file is whole once it is there)."""
        path = Path(logdir) / f"{name}{STACKS}"
        with open(path.with_suffix(".part"), "w") as out:
            out.write(f"{name}: fenced {leases.fenced}, suspended {leases.suspended}, "
                      f"stopping {stop.is_set()}, epochs {leases.epochs}\n")
            for task in asyncio.all_tasks(loop):
                task.print_stack(file=out)
        os.replace(path.with_suffix(".part"), path)

    loop.add_signal_handler(DUMP_SIGNAL, dump)
    freezing: list[asyncio.Task[None]] = []
    loop.add_signal_handler(signal.SIGUSR1, freeze)
    freeze_inside(store, loop)
    await leases.acquire(poll=ttl / 20)
    held = time.time()
    leases.start()
    restored = await service.restore(leases.owns)
    forwarding = soak_inbox.Worker(store, service, owner, lambda: leases.epochs, count, logdir)
    loop.add_signal_handler(soak_inbox.QUIET_SIGNAL, forwarding.forwarding.clear)
    print(json.dumps({"event": "ready", "name": name, "owner": owner, "started": started,
                      "held": held, "ready": time.time(), "restored": len(restored)}),
          flush=True)
    await stop.wait()
    await forwarding.stop()
    logging.disable(logging.ERROR)  # computer seats cut short by the stop
    await service.close()
    for lock in list(repository._locks.values()):  # the writes under way finish
        async with lock:
            pass
    await leases.release()
    await store.close()
    os.close(fd)
    return status


# ---- the coordinator --------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    shards: list[int]
    popen: subprocess.Popen[str]
    ready: dict[str, Any] = field(default_factory=dict)


async def create_tables(db: str, count: int, tables: int,
                        options: Callable[[int], dict[str, Any]] = lambda n: {}) -> None:
    """`tables` tables, one a guild, each seated with distinct simulated people on
    autopilot (the computer plays for them): their matches are ranked, so settling a hand
    rates it, as it would at a table of people (computer seats would leave it unrated)."""
    store = await Store.open(db)
    config = worker_config().with_changes(action_delay=30.0)
    service = headless_service(TableRepository(store), config)
    level = level_of(config.computer_player)
    for n in range(tables):
        guild = guild_on(n % count, count, n)
        creator = player_id(n, 0)
        stored, _ = await service.open_table(guild, 1000 + n, creator, "soak", "en",
                                             options(n))

        def people(tx: Tx, n: int = n) -> None:
            for seat in range(tx.doc.seat_count):
                tx.doc.seats[seat] = Seat(player_id(n, seat), f"P{n}.{seat}", "en",
                                          level=level)

        await service.transact(stored.id, people)
        await play_on(service, stored.id)
    await service.close()
    await store.close()


def on_autopilot(tx: Tx) -> None:
    """Every seat's person on autopilot (after the start, which clears it)."""
    for entry in tx.doc.seats:
        assert entry is not None
        entry.autopilot = True


async def play_on(service: TableService, table_id: int) -> None:
    """Start the table's (next) match, its people on autopilot: a soak's tables never
    stop playing (a table whose match is over would stand in its lobby)."""
    _, doc = await service.load(table_id)
    await service.start(table_id, doc.creator_id)
    await service.transact(table_id, on_autopilot)


class Soak:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.db = args.database or str(workdir / "soak.sqlite3")
        self.workdir = workdir
        self.logdir = workdir / "logs"
        self.logdir.mkdir()
        self.procs: dict[str, Proc] = {}
        self.takeovers: dict[str, list[float]] = defaultdict(list)
        self.waits: dict[str, list[float]] = defaultdict(list)
        """The replacement's own wait for the shards (its process start left out)."""
        self.exits: dict[str, int] = {}
        self.woken_exit_s = 0.0
        """Seconds from waking the frozen process to its exit."""
        self.stuck: list[str] = []
        """The stacks of woken processes that did not exit (`woken_exit`)."""

    def spawn(self, name: str, shards: list[int]) -> Proc:
        popen = subprocess.Popen(
            [sys.executable, "-m", "tools.soak_cluster", "worker", self.db, name,
             ",".join(map(str, shards)), str(self.args.shards), str(self.logdir),
             str(self.args.ttl)],
            stdout=subprocess.PIPE, text=True)
        proc = Proc(name, shards, popen)
        self.procs[name] = proc
        return proc

    async def woken_exit(self, proc: Proc) -> tuple[int, float]:
        """A woken former owner's exit status (-1 if still running after `WOKEN_EXIT` s:
        its stacks are kept in `stuck`, and it is killed) and the seconds it took."""
        woke = time.time()
        try:
            status = await asyncio.to_thread(proc.popen.wait, WOKEN_EXIT)
        except subprocess.TimeoutExpired:
            status = -1
            proc.popen.send_signal(DUMP_SIGNAL)
            stacks = self.logdir / f"{proc.name}{STACKS}"
            for _ in range(DUMP_POLLS):  # until it has written them (a stopped one never)
                if stacks.exists():
                    break
                await asyncio.sleep(0.1)
            self.stuck.append(stacks.read_text() if stacks.exists() else "no stacks")
            proc.popen.kill()
            await asyncio.to_thread(proc.popen.wait)
        return status, time.time() - woke

    async def ready(self, proc: Proc) -> dict[str, Any]:
        assert proc.popen.stdout is not None
        async with asyncio.timeout(READY_WITHIN):  # a bound: `drive` then kills them all
            line = await asyncio.to_thread(proc.popen.stdout.readline)
        if not line:
            raise RuntimeError(f"{proc.name} exited before it was ready")
        proc.ready = json.loads(line)
        return proc.ready

    async def replace(self, old: Proc, kind: str, sig: int) -> Proc:
        """Signal `old`, start its replacement at once; the take-over time is from the
        signal to the replacement having restored the shards' tables."""
        at = time.time()
        old.popen.send_signal(sig)
        new = self.spawn(old.name + "'", old.shards)
        ready = await self.ready(new)
        self.takeovers[kind].append(ready["ready"] - at)
        self.waits[kind].append(ready["held"] - ready["started"])
        return new

    async def drive(self) -> dict[str, Any]:
        """`run`, every worker still running killed if it fails: one left behind would
        hold the caller's output open (its stderr is the soak's) and go on playing."""
        try:
            return await self.run()
        finally:
            for proc in self.procs.values():
                if proc.popen.poll() is None:
                    proc.popen.kill()  # stopped (SIGSTOP) or not
                    await asyncio.to_thread(proc.popen.wait)

    async def run(self) -> dict[str, Any]:
        args = self.args
        await create_tables(self.db, args.shards, args.tables)
        per = args.shards // args.processes
        workers = [self.spawn(f"w{i}", list(range(i * per, (i + 1) * per)))
                   for i in range(args.processes)]
        for proc in workers:
            await self.ready(proc)
        start = time.time()
        if args.measure:  # no faults: throughput and save latency only
            await asyncio.sleep(args.measure)
            return await self.stop_all(start, woken=False)
        await asyncio.sleep(args.spell)
        victim = workers[0]
        for _ in range(args.kills):  # crash take-over, mid-hand
            victim = await self.replace(victim, "crash", signal.SIGKILL)
            await asyncio.sleep(args.spell)
        frozen = workers[1]
        frozen.popen.send_signal(signal.SIGUSR1)  # SIGSTOP between two of its writes
        stopped_at = time.time()
        await asyncio.sleep(args.ttl * 1.5)  # past its lease
        new = self.spawn(frozen.name + "'", frozen.shards)
        ready = await self.ready(new)
        self.takeovers["frozen"].append(ready["ready"] - stopped_at)
        self.waits["frozen"].append(ready["held"] - ready["started"])
        await asyncio.sleep(args.spell)
        frozen.popen.send_signal(signal.SIGCONT)  # wakes believing it owns its shards
        self.exits["woken"], self.woken_exit_s = await self.woken_exit(frozen)
        graceful = workers[2] if len(workers) > 2 else new
        await self.replace(graceful, "graceful", signal.SIGTERM)
        await asyncio.sleep(args.spell)
        return await self.stop_all(start, woken=True)

    async def quiet(self) -> None:
        """No new forwarded submission (`soak_inbox.QUIET_SIGNAL`) for `soak_inbox.QUIET`
        seconds: every one queued is answered before the end."""
        for proc in self.procs.values():
            if proc.popen.poll() is None:
                proc.popen.send_signal(soak_inbox.QUIET_SIGNAL)
        await asyncio.sleep(soak_inbox.QUIET)

    async def stop_all(self, start: float, *, woken: bool) -> dict[str, Any]:
        await self.quiet()
        end = time.time()
        if not woken:
            self.exits["woken"] = EXIT_FENCED
        for proc in self.procs.values():
            if proc.popen.poll() is None:
                proc.popen.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            code = await asyncio.to_thread(proc.popen.wait, 30)
            self.exits.setdefault(proc.name, code)
        return await self.verify(end - start)

    async def verify(self, seconds: float) -> dict[str, Any]:
        commits: list[tuple[int, int, int, int, str, int]] = []
        latencies: list[float] = []
        refused = 0
        for log in self.logdir.glob("*.log"):
            for line in log.read_text().splitlines():
                if line.startswith("refused"):
                    refused += 1
                    continue
                words = line.split()
                after = int(words[7]) if len(words) > 7 else int(words[3])
                commits.append((int(words[0]), int(words[1]), int(words[2]), int(words[3]),
                                words[4], after))
                latencies.append(float(words[6]))
        store = await Store.open(self.db)
        cluster = ClusterStore(store)
        lease_log = await cluster.lease_log()
        acquired: dict[tuple[int, int], set[str]] = defaultdict(set)
        epochs: dict[int, list[int]] = defaultdict(list)
        for shard, owner, epoch, event, _ in lease_log:
            if event == "acquire":
                acquired[shard, epoch].add(owner)
                epochs[shard].append(epoch)
        two_owners = sum(len(owners) > 1 for owners in acquired.values())
        two_owners += sum(e != list(range(e[0], e[0] + len(e))) for e in epochs.values())
        seen: dict[tuple[int, int], int] = defaultdict(int)
        missing = stale = 0
        by_table: dict[int, list[tuple[int, int, int, str]]] = defaultdict(list)
        for table, version, shard, before, owner, after in commits:
            # the epoch checked: held when the save began, else taken again during it
            epoch = before if owner in acquired.get((shard, before), set()) else after
            seen[table, version] += 1
            by_table[table].append((version, shard, epoch, owner))
            if owner not in acquired.get((shard, epoch), set()):
                stale += 1
        for table, rows in by_table.items():
            stored = await store.load_table(table)
            assert stored is not None
            missing += sum(version > stored.version for version, *_ in rows)
            rows.sort()
            stale += sum(b[2] < a[2] for a, b in itertools.pairwise(rows))
        duplicates = sum(n > 1 for n in seen.values())
        gaps = hands = replayed = bad_replays = actions = 0

        def read_hands(db: Any) -> list[tuple[int, list[int]]]:
            rows = db.execute("SELECT hand_id, seq FROM hand_actions ORDER BY hand_id, seq")
            out: dict[int, list[int]] = defaultdict(list)
            for hand_id, seq in rows:
                out[int(hand_id)].append(int(seq))
            return list(out.items())

        for hand_id, seqs in await store._db.read(read_hands):
            hands += 1
            actions += len(seqs)
            gaps += seqs != list(range(len(seqs)))
            record = await store.hand_record(hand_id)
            if record is not None and record.result_side is not None:
                replayed += 1
                try:
                    bad_replays += not _matches_record(replay_frames(record), record)
                except Exception:
                    bad_replays += 1
        rated, rating_mismatches = await recompute_ratings(store, self.workdir)
        forwarded = await soak_inbox.verify(store, self.logdir, store.kind == "postgres")
        await store.close()
        return {
            "seconds": round(seconds, 1), "processes_started": len(self.procs),
            "acknowledged_saves": len(commits),
            "saves_per_second": round(len(commits) / seconds, 1),
            "save_ms_p50_p99": [round(q, 1) for q in quantiles(latencies)],
            "hand_actions": actions, "hands": hands, "settled_hands_replayed": replayed,
            "missing_acknowledged": missing, "duplicate_versions": duplicates,
            "stale_commits": stale, "stale_saves_refused": refused,
            "shards_with_two_owners": two_owners,
            "sequence_gaps_or_duplicates": gaps, "replay_mismatches": bad_replays,
            "rated_hands": rated, "rating_mismatches": rating_mismatches,
            "woken_exit_status": self.exits.get("woken"),
            "woken_exit_s": round(self.woken_exit_s, 2),
            "woken_stuck_stacks": self.stuck,
            "takeover_s": {k: [round(v, 2) for v in vs] for k, vs in self.takeovers.items()},
            "lease_wait_s": {k: [round(v, 2) for v in vs] for k, vs in self.waits.items()},
            **forwarded,
        }


async def recompute_ratings(store: Store, workdir: Path) -> tuple[int, int]:
    """Rate every settled hand of a ranked match again, in order, with the store's own
    `bot.storage.ratings.record_hand` into a fresh database, and compare with the stored
    ``ratings`` and ``pair_ratings``. Returns the hands rated and the rows that differ
    (missing on either side, or another mu, sigma or count of hands). The order is the
    hands' ids: each guild has one table here, whose hands are dealt one after another."""

    def settled(db: Any) -> list[tuple[int, int, HandRecord]]:
        out = []
        for match in db.execute("SELECT match_key, guild_id, season FROM matches"
                                " WHERE ranked = 1").fetchall():
            out += [(int(match["guild_id"]), int(match["season"]), hand)
                    for hand in history.match_hands(db, match["match_key"])
                    if hand.result_side is not None]
        return sorted(out, key=lambda found: found[2].id or 0)

    def rating_rows(db: Any) -> dict[tuple[Any, ...], tuple[float, float, int]]:
        found = {}
        for r in db.execute("SELECT guild_id, season, mode, user_id, mu, sigma, hands"
                            " FROM ratings").fetchall():
            found["player", int(r["guild_id"]), int(r["season"]), r["mode"],
                  int(r["user_id"])] = (float(r["mu"]), float(r["sigma"]), int(r["hands"]))
        for r in db.execute("SELECT guild_id, season, user_lo, user_hi, mu, sigma, hands"
                            " FROM pair_ratings").fetchall():
            found["pair", int(r["guild_id"]), int(r["season"]), int(r["user_lo"]),
                  int(r["user_hi"])] = (float(r["mu"]), float(r["sigma"]), int(r["hands"]))
        return found

    hands = await store._db.read(settled)
    stored = await store._db.read(rating_rows)
    scratch = await Store.open(str(workdir / "ratings-recomputed.sqlite3"))
    try:
        def rate_all(db: Any) -> None:
            for guild, season, hand in hands:
                assert hand.id is not None
                ratings.record_hand(db, hand.id, guild, season, hand, 0.0)

        await scratch._db.write(rate_all)
        again = await scratch._db.read(rating_rows)
    finally:
        await scratch.close()

    def same(a: tuple[float, float, int] | None, b: tuple[float, float, int] | None) -> bool:
        return a is not None and b is not None and a[2] == b[2] and all(
            abs(x - y) <= 1e-9 for x, y in zip(a[:2], b[:2], strict=True))

    return len(hands), sum(not same(stored.get(key), again.get(key))
                           for key in stored.keys() | again.keys())


def quantiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 (0 for none)."""
    if not values:
        return 0.0, 0.0
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]


def failures(result: dict[str, Any]) -> list[str]:
    bad = [key for key in ("missing_acknowledged", "duplicate_versions", "stale_commits",
                           "shards_with_two_owners", "sequence_gaps_or_duplicates",
                           "replay_mismatches", "rating_mismatches") if result[key]]
    if result["woken_exit_status"] != EXIT_FENCED:
        bad.append("woken_exit_status")
    if not result["acknowledged_saves"]:
        bad.append("acknowledged_saves")
    return bad + soak_inbox.failures(result)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "worker":
        db, name, shards, count, logdir, ttl = argv[1:7]
        return asyncio.run(run_worker(db, name, [int(s) for s in shards.split(",")],
                                      int(count), logdir, float(ttl)))
    parser = argparse.ArgumentParser(prog="python -m tools.soak_cluster")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--shards", type=int, default=6)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--ttl", type=float, default=3.0, help="lease seconds")
    parser.add_argument("--spell", type=float, default=4.0,
                        help="seconds of play between two events")
    parser.add_argument("--short", action="store_true", help="the version make test runs")
    parser.add_argument("--database", default="", metavar="URL",
                        help="an empty PostgreSQL database (postgresql://…) the clusters "
                             "share; default: an SQLite file in a temporary folder")
    parser.add_argument("--measure", type=float, default=0.0, metavar="SECONDS",
                        help="no faults: play this long, report saves a second and latency")
    parser.add_argument("--availability", action="store_true",
                        help="the availability faults instead (tools/soak_availability.py:"
                             " pauses inside transactions, database outages, killed"
                             " backends) on a PostgreSQL server of the soak's own")
    parser.add_argument("--pause", type=float, default=30.0,
                        help="--availability: seconds a cluster stays frozen")
    parser.add_argument("--inside", nargs="*", default=list(FREEZE_INSIDE),
                        choices=list(FREEZE_INSIDE),
                        help="--availability: the transactions a cluster is frozen inside")
    parser.add_argument("--downs", type=float, nargs="*", default=[5.0, 30.0],
                        help="--availability: seconds of each database outage")
    parser.add_argument("--terminations", type=int, default=3,
                        help="--availability: times every backend is ended")
    parser.add_argument("--targets", choices=("check", "report"), default="check",
                        help="--availability: fail on a missed timing target, or only"
                             " report it (make test: timings depend on the machine)")
    args = parser.parse_args(argv)
    if args.short:
        args.tables, args.ttl, args.spell = 6, 1.5, 1.5
        if args.availability:
            args.ttl, args.spell, args.pause, args.downs, args.terminations = (
                3.0, 2.0, 5.0, [2.0, 5.0], 2)
    with tempfile.TemporaryDirectory() as tmp:
        if args.availability:
            from tools import soak_availability
            result = soak_availability.run(args, Path(tmp))
        else:
            result = asyncio.run(Soak(args, Path(tmp)).drive())
    print(json.dumps(result, indent=1))
    bad = failures(result) + result.get("availability_failures", [])
    if bad:
        print("FAILED:", ", ".join(bad), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
