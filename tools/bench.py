"""``python -m tools.bench``: how many busy tables one bot process holds (issue 16).

One bot process on a simulated Discord (SimCord, in this process), N tables each with
``--humans`` simulated people (the rest computer players), all playing at once through
their DM panels: make the first bid they can in the declaration window (else pass; four
people who all passed would be dealt again forever), press Ready on the summary (a click
in the table's channel: its token carries the next hand's table message), pick cards in
the selects and press Bury / Play. Humans think ``--think`` seconds on average (uniform, 0
to twice that).

Reported (wall-clock, so run it on a quiet machine or pinned: ``taskset -c 0``):

* Play press → commit p50/p99: the Play button's interaction sent → the move committed;
* card pick → panel redrawn p50/p99 (``pick_to_panel_ms``): a card select sent → its panel
  redrawn (the answer carrying it, or the edit after a late deferral);
* Play → own panel p50/p99 (``play_to_panel_ms``): the Play press sent → the person's own
  DM panel shows a later step (edited or sent again: their hand without the cards played);
* computer moves a second (``computer_moves_per_second``) and the worker processes' CPU as
  a share of one core (``worker_core_share``): what people first costs the computers;
* first reply p50/p99: any interaction sent → its acknowledgement (Discord's 3 s limit); a
  card pick's is the redrawn panel itself (UPDATE_MESSAGE), or the router's late deferral
  when the redraw had not begun within 0.25 s (bot/ui/components.py ``ANSWER_WITHIN``);
* event-loop lag p50/p99: a thread posts a callback every ``--lag-every`` seconds (0.1);
  how late it runs. Each sample wakes the loop from another thread, and that wakeup stays
  in "own" (about 0.1 ms of the loop's CPU each on a small VM: sampling every 20 ms, as
  this bench did before, was 5 ms of "own" per second whatever the load);
* CPU per hand (process CPU over settled hands) and the same outside the computers'
  thinking, image rendering and the simulated world itself; the engine's own ``apply`` per
  move, and the bot's own CPU per move ("own") as a multiple of it;
* each thread's CPU (``threads_cpu_s``: the loop, the database's, the worker pool's);
* counts per committed move: table loads (``reads``: from storage), match parses
  (``Match.from_dict``), saves, images rendered.
* the Discord traffic per committed move (``traffic``, `tools.bench_traffic`): each kind of
  HTTP call the bot makes (an answer by callback type, a DM or channel message sent or
  edited, an interaction's original response edited) with its payload's size, uploads and
  components; and the gateway events discord.py parsed (``gateway_per_move``).

``--floor`` runs a minimal discord.py bot doing only that traffic, a move at a time, under
the same accounting (`tools.bench_floor`): how low the own CPU per move can go with
discord.py; ``--floor-store`` adds the commit of each move before its calls, through the
bot's own storage (`tools.bench_floor.FloorStore`). ``--attribute`` runs the bench twice,
the second time with the loop's thread profiled, and splits the own CPU per move by layer
(`tools.bench_attribute`).

Everything is measured by wrapping functions in this process (nothing in the bot knows).
"Own" is the bot process's CPU less exactly these, each measured where it runs:

* ``think`` and ``render``: the computers' thinking and the pictures when they run in this
  process (``--workers 0``; with workers they are in other processes and not in it);
* ``discord_sim``, the simulated Discord: SimCord's HTTP routes (``router.dispatch``) and
  gateway (``FakeGateway.feed``), and its hooks on the event loop (`_Meter.loop_hooks`):
  its virtual clock standing in for ``time.monotonic``, the bookkeeping it adds to every
  ``call_soon``/``call_soon_threadsafe``/``call_later``/``call_at``/``create_task``/
  ``run_in_executor`` of the bot (ownership records, context copies, the pending list)
  and the wrapper it runs each such callback in. A real bot on a real loop pays none of
  that, so it is not the bot's; what a real loop does pay stays the bot's: the loop's own
  ``call_soon`` & co. inside each hook, one real ``time.monotonic`` per clock read, the
  callbacks themselves, and discord.py's parsing of every event SimCord feeds the bot;
* ``people_sim``, the bench itself: the simulated people's steps, its lag probe's thread
  and the probe's callbacks on the loop (the bench's threads count as a whole,
  `_bench_thread`);
* ``instrumentation``, the bench's own wrappers: each timed window reads a thread's CPU
  clock twice (a system call, about 1.7 µs on a small VM, half of each outside the window)
  and runs a little Python of its own; what one window of each kind leaves outside what it
  counts is measured before the run (`_Meter.calibrate`) and taken out once per window
  opened (about 110 windows per move). The bookkeeping around SimCord's loop hooks is timed
  with them.

Garbage collections are the bot process's own wherever they come due: their CPU is taken
out of every window they run in (`_Meter.time_collections`; ``cpu_s["gc"]`` reports it).
A collection walks the whole heap, and counting it in the window that happened to allocate
made a computer's ``apply`` (the yardstick) or the simulator's routes pay for it now and
then, the ratio swinging with it.

The simulator's garbage is kept from the bot's collector: SimCord's record of each callback
it tracks and the callback's handle refer to each other, a cycle per callback (25 a move)
that only a collection frees, and a collection's pause is charged to whatever allocates
when it comes, mostly the bot; the bench unlinks them as they run (`_Unlinked`). Two small
simulator costs not worth a wrapper stay in "own" (it errs against the bot): SimCord's
pass-through hook on ``ThreadPoolExecutor.submit`` (the database's jobs) and the loop's
side of the lag probe's wakeups. ``discord_py_parse`` (diagnostic): CPU of discord.py's
parser per event kind, SimCord's hooks inside included. The simulated Discord's own cost
is also kept out of the way where it would dominate: SimCord's pending-callback records
compare by identity while measuring (`_identity_records`).
The bench's sleeps (the people's thinking, the publisher's edit interval) are real timers
of the loop (`wall_sleep`), past SimCord's hook, which virtualises the loop's timers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib
import itertools
import json
import math
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from tools.bench_meter import (
    BenchConfig,
    _identity_records,
    _LagProbe,
    _Meter,
    _ms,
    _Press,
    _WallAsyncio,
    _WallTime,
    _Window,
    click,
    pin_process,
    real_monotonic,
    wall_sleep,
)
from tools.bench_traffic import GlobalLimit, limit_lines, traffic_lines

__all__ = ["BenchConfig", "_LagProbe", "_Meter", "main", "run_bench", "sweep_row"]


# ---- the simulated world --------------------------------------------------------------------

def _components(message: Any) -> list[Any]:
    out: list[Any] = []
    for row in message.components:
        out.extend(getattr(row, "children", [row]))
    return out


def _verb(item: Any) -> tuple[str, int]:
    parts = (getattr(item, "custom_id", None) or "").split(":")
    if len(parts) < 5 or parts[0] != "tr":
        return "", -1
    return parts[4], int(parts[3])


def _find(message: Any, verb: str) -> Any | None:
    return next((c for c in _components(message) if _verb(c)[0] == verb), None)


class _Human:
    """One simulated person at one table, playing through the DM panel."""

    def __init__(self, bench: _Bench, table_id: int, actor: Any, seat: int,
                 channel: Any) -> None:
        self.bench, self.table_id, self.actor, self.seat = bench, table_id, actor, seat
        self.channel = channel
        self.rng = random.Random(bench.config.seed * 1_000_003 + table_id * 4 + seat)

    def panel(self) -> Any | None:
        for message in reversed(self.actor.user.dm_channel.history()):
            if message.components:
                return message
        return None

    async def send(self, message: Any, custom_id: str, kind: str,
                   values: list[str] | None = None, *, public: bool = False) -> _Press:
        return click(self.bench.meter, self.actor if public else self.actor.user, message,
                     custom_id, kind, values, guild=self.actor.guild if public else None)

    async def done(self, press: _Press) -> None:
        await press.done.wait()
        if press.acked is not None:
            self.bench.acks.append(press.acked - press.sent)
        if press.kind == "select" and press.finished is not None:
            self.bench.picks.append(press.finished - press.sent)
        self.bench.meter.presses.pop(press.token, None)

    async def panel_after(self, step: int) -> float | None:
        """Wait until the DM panel shows a step after `step`; when it was seen."""
        event = self.bench.meter.channel_events.setdefault(
            self.actor.user.dm_channel.id, asyncio.Event())
        while not self.bench.stopping:
            panel = self.panel()
            if panel is not None and any(_verb(c)[1] > step for c in _components(panel)):
                return time.perf_counter()
            event.clear()
            await event.wait()
        return None

    async def ready(self, step: int) -> None:
        """Press Ready on the table message (the next deal waits for everyone)."""
        posted = self.bench.meter.channel_events.setdefault(self.channel.id, asyncio.Event())
        while True:  # the summary with the button may not be posted yet (edits coalesce)
            table = next((m for m in reversed(self.channel.history())
                          if _find(m, "ready") is not None), None)
            button = None if table is None else _find(table, "ready")
            if button is not None:
                break
            if self.bench.stopping or self.bench.docs[self.table_id].step != step:
                return
            posted.clear()
            await posted.wait()
        await self.done(await self.send(table, button.custom_id, "ready", public=True))
        await self.bench.changed(self.table_id, step, ready=self.seat)

    async def panel_at(self, step: int) -> Any:
        """Wait until the DM panel shows `step` (or a later one: the table moved on while
        it was being drawn, as the declarations do with computers that wait)."""
        event = self.bench.meter.channel_events.setdefault(
            self.actor.user.dm_channel.id, asyncio.Event())
        while not self.bench.stopping:
            panel = self.panel()
            if panel is not None and any(_verb(c)[1] >= step for c in _components(panel)):
                return panel
            event.clear()
            await event.wait()
        return None

    async def run(self) -> None:
        from engine.game import Phase

        bench = self.bench
        while not bench.stopping:
            doc = bench.docs[self.table_id]
            match = doc.get_match()
            step = doc.step
            if (match is not None and match.phase is Phase.BETWEEN_HANDS
                    and self.seat in getattr(doc, "unready", ())):
                await self.ready(step)
                continue
            if match is None or self.seat not in _to_act(match):
                await bench.changed(self.table_id, step)
                continue
            panel = await self.panel_at(step)
            if panel is None:
                return
            bench.noticed(self.table_id, step, self.seat)
            await wall_sleep(self.rng.uniform(0, 2 * bench.config.think))
            if bench.stopping or bench.docs[self.table_id].step != step:
                continue
            phase = match.phase
            if phase is Phase.DECLARING:
                if not match.public_view().declarations:  # the first bid they can make
                    bid = next((c for c in _components(panel)
                                if _verb(c)[0] == "decl" and not c.disabled), None)
                    if bid is not None:
                        await self.done(await self.send(panel, bid.custom_id, "declare"))
                        await bench.changed(self.table_id, step)
                        continue
                button = _find(panel, "pass")
                if button is not None:
                    await self.done(await self.send(panel, button.custom_id, "pass"))
                    await bench.changed(self.table_id, step, seat_passed=self.seat)
                continue
            if phase is Phase.BURYING:
                remaining = 8
                for select in [c for c in _components(panel) if _verb(c)[0] == "sel"]:
                    take = [o.value for o in select.options][:remaining]
                    if not take:
                        continue
                    await self.done(await self.send(self.panel(), select.custom_id, "select",
                                                    take))
                    remaining -= len(take)
                    if remaining == 0:
                        break
                verb = "bury"
            else:
                quick = _find(panel, "quick")
                if quick is None:
                    select = next(c for c in _components(panel) if _verb(c)[0] == "sel")
                    chosen, custom_id = [select.options[0].value], select.custom_id
                else:
                    chosen, custom_id = [quick.options[0].value], quick.custom_id
                await self.done(await self.send(panel, custom_id, "select", chosen))
                verb = "play"
            panel = self.panel()
            button = None if panel is None else _find(panel, verb)
            if button is None or button.disabled:
                bench.failures["no " + verb] += 1
                await bench.changed(self.table_id, step)
                continue
            press = await self.send(panel, button.custom_id, verb)
            committed = await bench.changed(self.table_id, step)
            if verb == "play" and committed is not None:
                bench.commits.append(committed - press.sent)
                seen = await self.panel_after(step)
                if seen is not None:
                    bench.own_panels.append(seen - press.sent)
            await self.done(press)


def _to_act(match: Any) -> list[int]:
    from bot.core.table import seats_to_act
    return seats_to_act(match)


class _Bench:
    def __init__(self, config: BenchConfig, env: Any) -> None:
        self.config, self.env = config, env
        self.meter = _Meter()
        self.docs: dict[int, Any] = {}
        self.events: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.commit_times: dict[int, float] = {}
        self.passes: dict[int, set[int]] = defaultdict(set)
        self.commits: list[float] = []
        self.acks: list[float] = []
        self.picks: list[float] = []
        self.own_panels: list[float] = []
        self.moves = 0
        self.computer_moves = 0
        self.hands = 0
        self.failures: Counter[str] = Counter()
        self.stopping = False
        self.autopilot: list[int] = []
        """Tables whose creator's seat the computer plays (``humans=0``)."""
        self.step_times: dict[tuple[int, int], float] = {}
        """When each (table, step) was committed."""
        self.notices: list[float] = []
        """A person's turn: the commit that made it → their DM panel showing that step."""
        self._noticed: set[tuple[int, int, int]] = set()
        self.channel_tables: dict[int, int] = {}
        """Table channels → their table."""
        self.unshown: dict[int, list[tuple[int, float]]] = defaultdict(list)
        """Per table, the commits (step, when) its table message does not show yet."""
        self.staleness: list[float] = []
        """Each commit → the table message showing its step (or a later one)."""
        self.rendered: dict[int, int] = {}
        """The step each table message was last drawn at (`_watch_table_renders`)."""

    def noticed(self, table_id: int, step: int, seat: int) -> None:
        """`seat`'s person sees the panel of `step`, at which it is their turn."""
        key = (table_id, step, seat)
        committed = self.step_times.get((table_id, step))
        if key not in self._noticed and committed is not None:
            self._noticed.add(key)
            self.notices.append(time.perf_counter() - committed)

    def shown(self, channel_id: int, step: int, when: float) -> None:
        """A message of `channel_id` now shows `step` (the meter's `shown`)."""
        table_id = self.channel_tables.get(channel_id)
        if table_id is None:
            return
        step = self.rendered.get(table_id, step)
        pending = self.unshown[table_id]
        while pending and pending[0][0] <= step:
            self.staleness.append(when - pending.pop(0)[1])

    def stale_at_end(self, now: float) -> None:
        """Commits the table messages never showed: their lag so far."""
        for pending in self.unshown.values():
            self.staleness.extend(now - committed for _, committed in pending)
            pending.clear()

    def hook(self, service: Any) -> Callable[[], None]:
        """Watch every commit (the service's `_after_commit`), and arm no timer but
        immediate ones (the next hand): the simulated people always answer, and SimCord's
        timers are virtual."""
        original = service._after_commit
        timers = getattr(service, "autopilot", service).timers
        arm = timers.arm

        def arm_now(table_id: int, deadline: float | None, step: int) -> None:
            if deadline is None or deadline - timers.clock() <= 0:
                arm(table_id, deadline, step)

        timers.arm = arm_now

        def after_commit(tx: Any) -> None:
            from engine.events import HandSettled
            self.docs[tx.table_id] = tx.doc
            now = self.commit_times[tx.table_id] = time.perf_counter()
            self.step_times[tx.table_id, tx.doc.step] = now
            self.unshown[tx.table_id].append((tx.doc.step, now))
            self.moves += len(tx.actions)
            for action in tx.actions:
                seat = action.action.get("seat")
                entry = None if not isinstance(seat, int) else tx.doc.seats[seat]
                if entry is not None and (entry.user_id is None or entry.autopilot):
                    self.computer_moves += 1
            self.hands += sum(isinstance(e, HandSettled) for e in tx.events)
            for action in tx.actions:
                if action.action.get("type") == "pass":
                    self.passes[tx.table_id].add(int(action.action.get("seat", -1)))
            self.events[tx.table_id].set()
            if self.config.hands is not None and self.hands >= self.config.hands:
                self.stop()
            original(tx)

        service._after_commit = after_commit

        def unhook() -> None:
            del service._after_commit
            del timers.arm
        return unhook

    async def changed(self, table_id: int, step: int, *, seat_passed: int | None = None,
                      ready: int | None = None) -> float | None:
        """Wait for the table to move past `step` (or for `seat_passed`'s pass to be in);
        the time of the commit that did it."""
        event = self.events[table_id]
        while not self.stopping:
            doc = self.docs[table_id]
            if doc.step != step or (seat_passed is not None
                                    and seat_passed in self.passes[table_id]) or (
                    ready is not None and ready not in getattr(doc, "unready", ())):
                self.passes[table_id].discard(seat_passed if seat_passed is not None else -9)
                return self.commit_times.get(table_id)
            event.clear()
            await event.wait()
        return None

    def stop(self) -> None:
        self.stopping = True
        for event in [*self.events.values(), *self.meter.channel_events.values()]:
            event.set()


async def _setup(env: Any, bench: _Bench, humans: int) -> list[_Human]:
    bot = env.bot
    guild = env.create_guild(name="Bench")
    await bot.store.set_guild_settings(guild.id, table_options={
        "declare_window_s": 120, "turn_timer_s": 0})
    people: list[_Human] = []
    for index in range(bench.config.tables):
        channel = guild.create_text_channel(f"table-{index}")
        users = [guild.add_member(env.create_user(f"p{index}-{n}"))
                 for n in range(max(humans, 1))]
        await users[0].slash(channel, "tractor new")
        stored = await bot.store.table_in_channel(channel.id)
        assert stored is not None, "no table opened"

        def table_message(channel: Any = channel) -> Any:
            for message in reversed(channel.history()):
                if _find(message, "join") or _find(message, "myhand"):
                    return message
            raise RuntimeError("no table message")

        for user in users[1:]:
            await user.click(table_message(), label="Join")
        for _ in range(4 - len(users)):
            await users[0].click(table_message(), label="Add bot")
        await users[0].click(table_message(), label="Start")
        loaded = await bot.service.load(stored.id)
        doc = loaded[1]
        bench.docs.setdefault(stored.id, doc)
        bench.channel_tables[channel.id] = stored.id
        if humans == 0:
            bench.autopilot.append(stored.id)
            continue
        for user in users:
            seat = doc.seat_of(user.id)
            assert seat is not None
            people.append(_Human(bench, stored.id, user, seat, channel))
    return people


async def run_bench(config: BenchConfig) -> dict[str, Any]:
    """Run one bench and return its report (see the module docstring)."""
    import simcord

    from bot import create_bot
    from bot.runtime.config import Config

    if config.loop_cpus is not None:
        pin_process(config.loop_cpus)
    workdir = None
    if config.database is None:
        workdir = tempfile.TemporaryDirectory(prefix="tractor-bench-")
        database = str(Path(workdir.name) / "bench.sqlite3")
    else:
        database = config.database
    undo = _identity_records()
    bot = create_bot(database, config=Config(
        action_delay=0.0, edit_interval=0.0, hand_pause=0.0, start_delay=0.0,
        computer_player=config.computer, seed=config.seed, restart_grace=15.0,
        sync_commands=True, workers=config.workers, rest_budget=math.inf))
    try:
        async with simcord.run(bot, settle_timeout=60.0) as env:
            if config.workers and (config.worker_cpus is not None or config.worker_nice != 10):
                await _workers(bot).run(os.getpid)  # the pool's processes exist from now on
                _pin_workers(bot, config.worker_cpus, config.worker_nice)
            bench = _Bench(config, env)
            if not config.tokens:  # before issue 36's tokens: every channel message by id
                bot.publisher.carriers.life = timedelta(0)
            unhook = bench.hook(bot.service)
            try:
                people = await _setup(env, bench, config.humans)
                report = await _measure(bench, bot, people)
            finally:
                unhook()
            await _quiesce(bot)
            return report
    finally:
        undo()
        if workdir is not None:
            workdir.cleanup()


async def _quiesce(bot: Any) -> None:
    """Let the work in flight finish, start no more computer turns, then close."""
    autopilot = getattr(bot.service, "autopilot", bot.service)  # older bots: the service
    autopilot._closed = True
    while autopilot._tasks:
        await asyncio.gather(*list(autopilot._tasks), return_exceptions=True)
    await bot.publisher.idle()
    await bot.close_store()


async def _measure(bench: _Bench, bot: Any, people: list[_Human]) -> dict[str, Any]:
    config = bench.config
    meter = bench.meter
    repository = bot.service.repository
    meter.calibrate()
    meter.install(bot._connection, in_process=_pool(bot) is None)
    import bot.services.autopilot as autopilot_module
    import bot.ui.edits as edits
    import bot.ui.publish as publish
    # the publisher's edit interval, late deferrals, the computers' wait: in real time
    for module in (publish, edits, autopilot_module):
        meter._patch(module, "asyncio", _WallAsyncio())
    meter._patch(publish, "time", _WallTime())
    meter.shown = bench.shown
    _watch_table_renders(meter, bench)
    changed = {"edit_interval": config.edit_interval, "action_delay": config.action_delay,
               "rest_budget": config.rest_budget}
    bot.publisher.config = bot.publisher.config.with_changes(**changed)
    autopilot_of = getattr(bot.service, "autopilot", None)
    if autopilot_of is not None:
        autopilot_of.config = autopilot_of.config.with_changes(**changed)
    budget = _budget(bot, config.rest_budget)
    limit = GlobalLimit(config.limit, clock=real_monotonic)
    undo_limit = limit.install()
    loop = asyncio.get_running_loop()

    def autopilot(tx: Any) -> None:
        tx.doc.seat(0).autopilot = True

    tasks: list[asyncio.Future[None]] = []
    try:
        for table_id in bench.autopilot:  # four computers: the creator's seat too
            await bot.service.transact(table_id, autopilot)
        tasks = [asyncio.ensure_future(meter.people(person.run())) for person in people]
        if config.warmup > 0:  # the tables spread over the phases of a hand first
            await wall_sleep(config.warmup)
        stats_before = Counter(repository.stats)
        bench.moves = bench.hands = bench.computer_moves = 0
        for kept in (bench.commits, bench.acks, bench.picks, bench.own_panels,
                     bench.failures, bench.notices, bench.staleness):
            kept.clear()
        limit.clear()
        meter.written.clear()
        granted0, waited0 = _budget_sums(budget)
        with _Window(meter, loop, config.lag_every, config.stacks,
                     profile=config.profile) as window:
            drawn0 = _drawn(bot)
            workers0 = _workers_cpu(bot)
            ending = wall_sleep(config.seconds)
            ending.add_done_callback(lambda _: bench.stop())
            stopper = asyncio.ensure_future(_wait_stop(bench))
            await stopper
            now = time.perf_counter()
            unacknowledged = sum(1 for press in meter.presses.values()
                                 if press.acked is None and now - press.sent > 3.0)
            bench.stale_at_end(now)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            window.close()
            workers_cpu = _workers_cpu(bot) - workers0
            if _pool(bot) is not None:
                meter.counts["render"] = _drawn(bot) - drawn0
    finally:
        for task in tasks:
            task.cancel()
        if autopilot_of is not None:  # no computer turn may sleep on SimCord's clock after
            autopilot_of.config = autopilot_of.config.with_changes(action_delay=0.0)
        undo_limit()
        meter.uninstall()
        # the publisher's clock is SimCord's again: its last edits' real times would make
        # it wait for ages before the next (the edit interval counts from them)
        bot.publisher.config = bot.publisher.config.with_changes(edit_interval=0.0)
        getattr(bot.publisher, "_last_edit", {}).clear()
    stats = Counter(repository.stats)
    stats.subtract(stats_before)
    moves, hands = bench.moves, bench.hands
    own, loop_cpu = window.own, window.cpu
    cpu = loop_cpu + workers_cpu
    shared = window.accounting(moves)
    return {
        "tables": config.tables, "humans": config.humans, "workers": config.workers,
        "worker_nice": config.worker_nice, "computer": config.computer,
        "edit_interval": config.edit_interval, "think": config.think,
        "lag_every": config.lag_every,
        "warmup": config.warmup,
        **shared,
        "worker_cpus": _workers_affinity(bot),
        "hands": hands,
        "play_to_commit_ms": _ms(bench.commits),
        "pick_to_panel_ms": _ms(bench.picks),
        "play_to_panel_ms": _ms(bench.own_panels),
        "computer_moves_per_second": round(bench.computer_moves / shared["seconds"], 1),
        "worker_core_share": round(workers_cpu / shared["seconds"], 2),
        "first_reply_ms": _ms(bench.acks),
        "turn_notice_ms": _ms(bench.notices),
        "table_staleness_ms": _ms(bench.staleness),
        "unacknowledged": unacknowledged,
        "tokens": config.tokens,
        "table_channels": _table_writes(bench),
        "action_delay": config.action_delay,
        "global": limit.report(moves, shared["seconds"]),
        "budget": _budget_report(budget, granted0, waited0, config.edit_interval),
        "cpu_s": {"total": round(cpu, 3), "loop_process": round(loop_cpu, 3),
                  "think": round(meter.cpu["think"], 3),
                  "render": round(meter.cpu["render"], 3),
                  "workers": round(workers_cpu, 3),
                  "discord_sim": round(meter.cpu["discord"], 3),
                  "people_sim": round(meter.cpu["people"], 3),
                  "apply": round(meter.cpu["apply"], 3),
                  "instrumentation": round(window.instruments, 3),
                  "gc": round(meter.cpu["gc"], 3)},
        "cpu_per_hand_s": None if not hands else round(cpu / hands, 3),
        "own_cpu_per_hand_s": None if not hands else round(own / hands, 3),
        "per_move": {key: None if not moves else round(value / moves, 2) for key, value in {
            "loads": stats["load"] + stats["hit"], "reads": stats["load"],
            "parses": meter.counts["parse"],
            "saves": stats["save"],
            "renders": meter.counts["render"]}.items()},
        "failures": dict(bench.failures),
        "phases": dict(Counter(
            "-" if doc.get_match() is None else doc.get_match().phase.name.lower()
            for doc in bench.docs.values())),
    }


def _table_writes(bench: _Bench) -> dict[str, Any]:
    """The messages sent and edited in the tables' channels (the table messages, the
    announcements), through a token or by channel id, and the share of edits through a
    token (free of the global limit)."""
    out: Counter[str] = Counter()
    for (channel_id, method, free), count in bench.meter.written.items():
        if channel_id in bench.channel_tables:
            verb = "send" if method == "POST" else "edit"
            out[f"{verb} {'token' if free else 'channel id'}"] += count
    edits = out["edit token"] + out["edit channel id"]
    return {**dict(sorted(out.items())),
            "edits_free_share": None if not edits else round(out["edit token"] / edits, 3)}


def _watch_table_renders(meter: _Meter, bench: _Bench) -> None:
    """Note the step each table message is drawn at (`bench.rendered`): its buttons no
    longer carry it (bot/ui/panels.py ``TABLE_STEP``), and the publisher sends what it drew
    next, so a table message sent or edited shows the step its table was last drawn at."""
    import bot.ui.panels as panels
    view = getattr(panels, "table_view", None)
    if view is None:
        return

    def table_view(doc: Any, table_id: int, *args: Any, **kwargs: Any) -> Any:
        bench.rendered[table_id] = doc.step
        return view(doc, table_id, *args, **kwargs)

    meter._patch(panels, "table_view", table_view)


def _budget(bot: Any, rate: float) -> Any:
    """Give the bot a REST budget of `rate` on the real clock (it was set up without one:
    SimCord's clock stands still in the bench); None for a bot from before the budget."""
    try:
        from bot.app.rest import install_budget
        from bot.runtime.budget import RestBudget
    except ImportError:
        return None
    budget = RestBudget(rate, clock=real_monotonic, sleep=wall_sleep)
    install_budget(bot.http, budget)
    bot.budget = bot.publisher.budget = budget
    return budget


def _budget_sums(budget: Any) -> tuple[Counter[Any], dict[Any, float]]:
    if budget is None:
        return Counter(), {}
    return Counter(budget.granted), dict(budget.waited)


def _budget_report(budget: Any, granted0: Counter[Any], waited0: dict[Any, float],
                   base: float) -> dict[str, Any] | None:
    """Calls granted in the window by priority, their mean wait, the longest wait (of the
    whole run), the table interval at the end."""
    if budget is None:
        return None
    from bot.runtime.budget import Priority
    out: dict[str, Any] = {"rate": budget.rate,
                           "table_interval_s": round(budget.table_interval(base), 2)}
    for priority in Priority:
        granted = budget.granted[priority] - granted0[priority]
        waited = budget.waited[priority] - waited0.get(priority, 0.0)
        out[priority.name.lower()] = {
            "granted": granted,
            "mean_wait_ms": None if not granted else round(waited / granted * 1000, 1),
            "longest_wait_ms": round(budget.longest[priority] * 1000, 1)}
    return out


def _workers(bot: Any) -> Any:
    """The bot's worker pool: ``bot.workers``, or the module of a bot from before it was
    an object (before/after figures)."""
    found = getattr(bot, "workers", None)
    if found is None:
        from bot.runtime import offload
        return offload
    return found


def _pool(bot: Any) -> Any:
    """The pool of worker processes (None: threads)."""
    workers = _workers(bot)
    return getattr(workers, "pool", None) if hasattr(bot, "workers") else getattr(
        workers, "_pool", None)


def _pin_workers(bot: Any, cpus: tuple[int, ...] | None, nice: int) -> None:
    for pid in list(getattr(_pool(bot), "_processes", None) or {}):
        with contextlib.suppress(OSError):
            if cpus is not None:
                os.sched_setaffinity(pid, cpus)
            os.setpriority(os.PRIO_PROCESS, pid, nice)


def _drawn(bot: Any) -> int:
    """Pictures drawn so far (the publisher's `Pictures`, or an older bot's module)."""
    pictures: Any = getattr(bot.publisher, "pictures", None)
    if pictures is None:
        pictures = importlib.import_module("bot.services.pictures")
    return sum(getattr(cache, "drawn", cache.misses) for cache in (pictures.hands,
                                                                     pictures.tables))


def _workers_affinity(bot: Any = None) -> list[int] | None:
    pool = _pool(bot) if bot is not None else None
    for pid in list(getattr(pool, "_processes", None) or {}):
        with contextlib.suppress(OSError):
            return sorted(os.sched_getaffinity(pid))
    return None


def _workers_cpu(bot: Any) -> float:
    """CPU seconds used so far by the bot's worker processes (Linux /proc)."""
    pool = _pool(bot)
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in list(getattr(pool, "_processes", None) or {}):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def _wait_stop(bench: _Bench) -> None:
    event = asyncio.Event()
    bench.events[-1] = event
    while not bench.stopping:
        event.clear()
        await event.wait()


def _table(report: dict[str, Any]) -> Iterator[str]:
    yield (f"{report['tables']} tables × {report['humans']} humans, "
           f"{report['workers']} worker processes, {report['seconds']} s "
           f"(after {report['warmup']} s of warm-up), "
           f"load average {report['load_average']}, cpus {report['cpus']}, "
           f"worker cpus {report['worker_cpus']}")
    yield (f"  moves {report['moves']} ({report['moves_per_second']}/s), "
           f"hands {report['hands']}")
    for key, label in (("play_to_commit_ms", "Play → commit"),
                       ("pick_to_panel_ms", "pick → panel"), ("play_to_panel_ms", "Play → panel"),
                       ("first_reply_ms", "first reply"), ("loop_lag_ms", "loop lag")):
        entry = report[key]
        yield (f"  {label:14} p50 {entry['p50']} ms, p99 {entry['p99']} ms, "
               f"max {entry['max']} ms (n={entry['n']})")
    yield (f"  computer moves {report['computer_moves_per_second']}/s, worker CPU "
           f"{report['worker_core_share']:.0%} of a core")
    yield (f"  CPU per hand {report['cpu_per_hand_s']} s; outside thinking, rendering and "
           f"the simulated Discord {report['own_cpu_per_hand_s']} s")
    yield (f"  own CPU per move {report['own_cpu_per_move_ms']} ms = "
           f"{report['own_over_apply']}× apply ({report['apply_per_move_ms']} ms)")
    yield f"  per move: {report['per_move']}  cpu: {report['cpu_s']}"
    yield f"  threads' CPU (s): {report.get('threads_cpu_s')}"
    yield (f"  discord.py's event parsers (the bot's; SimCord's hooks inside included): "
           f"{report.get('discord_py_parse')}")
    yield from traffic_lines(report)
    yield from limit_lines(report)
    for key, label in (("turn_notice_ms", "turn notice"),
                       ("table_staleness_ms", "table lag")):
        entry = report.get(key)
        if entry is not None:  # (a report from before issue 36 has none)
            yield (f"  {label:14} p50 {entry['p50']} ms, p99 {entry['p99']} ms, "
                   f"max {entry['max']} ms (n={entry['n']})")
    if "unacknowledged" in report:
        yield f"  unacknowledged interactions: {report['unacknowledged']}"
    if "table_channels" in report:
        yield (f"  tables' channel messages (tokens {'on' if report['tokens'] else 'off'}): "
               f"{report['table_channels']}")
    if report.get("budget"):
        yield f"  REST budget: {report['budget']}"
    if report["failures"]:
        yield f"  failures: {report['failures']}"
    yield f"  tables at the end, by phase: {report['phases']}"
    yield "  GC pauses: " + ", ".join(
        f"{gen}: n={entry['n']} p50 {entry['p50']} max {entry['max']} total {entry['total']} ms"
        for gen, entry in report["gc_pauses_ms"].items())
    for entry in report.get("lag_stacks", ()):
        yield f"  loop held {entry['ms']} ms in: " + " ← ".join(reversed(entry["stack"]))


SWEEP_HEADER = ("| tables | moves/s | Play → commit p50 / p99 | pick → panel p50 / p99 | "
                "Play → own panel p50 / p99 | computer moves/s | worker CPU | "
                "first reply p50 / p99 | "
                "loop lag p50 / p99 | loop CPU per move | worker CPU per move | "
                "loads / parses / saves / renders per move | load average |")


def sweep_row(report: dict[str, Any]) -> str:
    """One Markdown table row of a report (`SWEEP_HEADER`)."""
    def pair(key: str) -> str:
        entry = report[key]
        return f"{_num(entry['p50'])} / {_num(entry['p99'])} ms"
    moves = report["moves"] or 1
    cpu = report["cpu_s"]
    per = report["per_move"]
    counts = " / ".join(_num(per[k]) for k in ("loads", "parses", "saves", "renders"))
    return (f"| {report['tables']} | {report['moves_per_second']} | "
            f"{pair('play_to_commit_ms')} | {pair('pick_to_panel_ms')} | "
            f"{pair('play_to_panel_ms')} | {report['computer_moves_per_second']} | "
            f"{report['worker_core_share']:.0%} | "
            f"{pair('first_reply_ms')} | {pair('loop_lag_ms')} | "
            f"{cpu['loop_process'] / moves * 1000:.1f} ms | "
            f"{cpu['workers'] / moves * 1000:.1f} ms | {counts} | "
            f"{report['load_average'][0]} |")


COMPARE_HEADER = ("| REST budget (tokens) | commits/s | global calls a commit | global calls/s "
                  "(busiest second) | global 429s | interaction calls a commit | "
                  "own panel after Play p99 | turn notice p50 / p99 | table lag p50 / p99 | "
                  "unacknowledged | table channel edits through a token |")


def compare_row(report: dict[str, Any]) -> str:
    """One Markdown row of a budget run (`COMPARE_HEADER`): the global-limit figures."""
    def pair(key: str) -> str:
        entry = report[key]
        return f"{_num(entry['p50'])} / {_num(entry['p99'])} ms"
    limits = report["global"]
    budget = report.get("budget") or {}
    rate = budget.get("rate", math.inf)
    free = (report.get("table_channels") or {}).get("edits_free_share")
    tokens = "on" if report.get("tokens", True) else "off"
    return (f"| {'none' if math.isinf(rate) else rate} ({tokens}) | "
            f"{report['moves_per_second']} | "
            f"{limits['global_per_commit']} | {limits['global_per_second']} "
            f"({limits['global_busiest_second']}; limit {limits['limit']}) | "
            f"{limits['global_429']} | {limits['interaction_per_commit']} | "
            f"{_num(report['play_to_panel_ms']['p99'])} ms | {pair('turn_notice_ms')} | "
            f"{pair('table_staleness_ms')} | {report['unacknowledged']} | "
            f"{'—' if free is None else f'{free:.0%}'} |")


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}" if value >= 100 else f"{value:g}"


def _run(config: BenchConfig, floor: bool, recipe: Path | None,
         store: bool = False) -> tuple[dict[str, Any], Iterator[str]]:
    """One run of the bench (or of the floor, with `store`: each move committed), its
    report and its printed lines."""
    if floor:
        from tools import bench_floor
        source = _recipe(recipe)
        report = asyncio.run(bench_floor.run_floor(
            config, None if source is None else source["traffic"], source, store=store))
        return report, bench_floor.floor_lines(report)
    report = asyncio.run(run_bench(config))
    return report, _table(report)


def _recipe(path: Path | None) -> dict[str, Any] | None:
    """A saved ``--json`` report of the bench (the last, if the file holds several), for
    its ``traffic`` (the floor's recipe), or None (the floor's default recipe)."""
    if path is None:
        return None
    text = path.read_text()
    decoder, found, index = json.JSONDecoder(), None, 0
    while index < len(text):
        if text[index].isspace():
            index += 1
            continue
        found, index = decoder.raw_decode(text, index)
    if not isinstance(found, dict) or not isinstance(found.get("traffic"), dict):
        raise SystemExit(f"{path}: no 'traffic' in the report")
    return found


def _cpus(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--sweep", type=_cpus, default=None, metavar="N,N,...",
                        help="run once per number of tables (e.g. 1,10,50,100,200) and "
                             "print one table row per run")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds the tables play before measuring starts")
    parser.add_argument("--hands", type=int, default=None,
                        help="stop after this many settled hands (all tables)")
    parser.add_argument("--humans", type=int, default=2, choices=range(0, 5),
                        help="simulated people per table (the rest are computers)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a person thinks before acting")
    parser.add_argument("--computer", default="ai", help="computer player (engine.ai)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edit-interval", type=float, default=1.0,
                        help="seconds between two edits of a table message (coalescing)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes for pictures and computers (0: threads; "
                             "default 1; the bot's TRACTOR_WORKERS=auto is one per core)")
    parser.add_argument("--loop-cpus", type=_cpus, default=None, metavar="N,...",
                        help="pin the bot's process (event loop, its threads) to these cores")
    parser.add_argument("--worker-cpus", type=_cpus, default=None, metavar="N,...",
                        help="run the worker processes on these cores")
    parser.add_argument("--pin", action="store_true",
                        help="the loop on core 0, the workers on core 1 "
                             "(--loop-cpus 0 --worker-cpus 1)")
    parser.add_argument("--worker-nice", type=int, default=10,
                        help="niceness of the worker processes (production: 10)")
    parser.add_argument("--lag-every", type=float, default=0.1,
                        help="seconds between two event-loop lag samples (each wakes the "
                             "loop from another thread, which the loop pays)")
    parser.add_argument("--stacks", type=int, default=8,
                        help="print the loop's N most frequent stacks while it lagged")
    parser.add_argument("--action-delay", type=float, default=0.0,
                        help="seconds a computer waits before its move (the bot's default "
                             "is 1; the realistic pace)")
    parser.add_argument("--rest-budget", type=float, default=math.inf,
                        help="the bot's REST budget (REST_BUDGET, calls a second; default: "
                             "none). Scaled: 10 tables under 0.9/s stand for 500 under 45/s")
    parser.add_argument("--limit", type=float, default=None,
                        help="simulate Discord's global limit at this many calls a second "
                             "(a counted call past it gets a global 429)")
    parser.add_argument("--compare", action="store_true",
                        help="run twice, without the REST budget and with --rest-budget, "
                             "and print the two side by side")
    parser.add_argument("--no-tokens", dest="tokens", action="store_false",
                        help="no interaction token carries the tables' channel messages: "
                             "every table message and announcement by channel id (the bot "
                             "before issue 36's tokens)")
    parser.add_argument("--compare-tokens", action="store_true",
                        help="run twice at --rest-budget, without tokens and with them, "
                             "and print the two side by side")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--floor", action="store_true",
                        help="run the floor instead (tools/bench_floor.py): a minimal "
                             "discord.py bot doing only the real bot's Discord traffic a "
                             "move; prints its CPU per move and its ratio to apply")
    parser.add_argument("--attribute", action="store_true",
                        help="run twice, the second time profiled, and print the own CPU "
                             "per move by layer (tools/bench_attribute.py)")
    parser.add_argument("--floor-recipe", type=Path, default=None, metavar="FILE",
                        help="with --floor: the traffic to reproduce, from a report of "
                             "`python -m tools.bench --json` (default: the recorded one)")
    parser.add_argument("--floor-store", action="store_true",
                        help="with --floor: commit each move first, as any bot keeping "
                             "the promise must (the match serialised as the bot stores "
                             "it, one transaction through bot/storage)")
    parser.add_argument("--database", metavar="PATH|URL", default=None,
                        help="the bot's database (default: a new SQLite file); a new "
                             "empty one for each run of a sweep is up to you")
    parser.add_argument("--postgres", action="store_true",
                        help="a throwaway local PostgreSQL server (tools.pg_server; durable "
                             "commits), a new database for each run")
    args = parser.parse_args(argv)
    if args.floor_store and not args.floor:
        parser.error("--floor-store goes with --floor")
    server = None
    if args.postgres:
        from tools.pg_server import start_server
        server = start_server(fsync=True)
    try:
        return _main(args, server)
    finally:
        if server is not None:
            server.stop("immediate")


def _main(args: argparse.Namespace, server: Any) -> int:
    import logging
    logging.getLogger("tractor").setLevel(logging.WARNING)
    loop_cpus, worker_cpus = args.loop_cpus, args.worker_cpus
    if args.pin:
        loop_cpus, worker_cpus = loop_cpus or (0,), worker_cpus or (1,)
    reports = []
    runs = ([(math.inf, args.tokens), (args.rest_budget, args.tokens)] if args.compare
            else [(args.rest_budget, False), (args.rest_budget, True)] if args.compare_tokens
            else [(args.rest_budget, args.tokens)])
    for tables, (rest_budget, tokens) in itertools.product(args.sweep or [args.tables], runs):
        config = BenchConfig(tables=tables, seconds=args.seconds, hands=args.hands,
                             humans=args.humans, think=args.think, computer=args.computer,
                             seed=args.seed, workers=args.workers,
                             edit_interval=args.edit_interval, loop_cpus=loop_cpus,
                             worker_cpus=worker_cpus, stacks=args.stacks,
                             worker_nice=args.worker_nice, warmup=args.warmup,
                             lag_every=args.lag_every, action_delay=args.action_delay,
                             rest_budget=rest_budget, limit=args.limit, tokens=tokens,
                             database=server.new_database("bench") if server is not None
                             else args.database)
        report, lines = _run(config, args.floor, args.floor_recipe, args.floor_store)
        if args.attribute:
            from tools import bench_attribute
            profiled, _ = _run(dataclasses.replace(config, profile=True), args.floor,
                               args.floor_recipe, args.floor_store)
            report = {**report, "attribution": bench_attribute.attribution(report, profiled)}
            lines = itertools.chain(lines, bench_attribute.table_lines(
                report["attribution"]))
        reports.append(report)
        if args.json:
            print(json.dumps(report, indent=2), flush=True)
        else:
            print("\n".join(lines), flush=True)
    if (args.compare or args.compare_tokens) and not args.json and not args.floor:
        print("\n" + COMPARE_HEADER)
        print("|---" * COMPARE_HEADER.count(" | ") + "|---|")
        for report in reports:
            print(compare_row(report))
    elif args.sweep and not args.json and not args.floor:
        print("\n" + SWEEP_HEADER)
        print("|---" * SWEEP_HEADER.count(" | ") + "|---|")
        for report in reports:
            print(sweep_row(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
