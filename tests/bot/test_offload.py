"""Pictures and computer players off the event loop (issue 16): worker processes or
threads, TRACTOR_WORKERS, and hand pictures drawn again only when what they show changed."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from botkit import find, world
from offload_jobs import sleep_for, slow_once

from bot.runtime import config, offload
from bot.runtime.config import Config, ConfigError, usable_cores
from bot.services.pictures import Pictures, _draw_hand, hand_key
from engine.actions import Pass, StartHand
from engine.game import Match, Phase
from engine.rules import RuleSet


@pytest.fixture
def pool() -> Iterator[offload.Workers]:
    workers = offload.Workers(1)
    try:
        yield workers
    finally:
        workers.shutdown()


def test_workers_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(config, "CPU_MAX", tmp_path / "absent")  # no container limit
    for cores, expected in ((1, 1), (2, 2), (3, 3), (40, 16)):  # auto: one per usable core
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)),
                            raising=False)
        assert Config.from_env({}, require_token=False).workers == expected
        assert Config.from_env({"TRACTOR_WORKERS": " Auto "},
                               require_token=False).workers == expected
    assert Config.from_env({"TRACTOR_WORKERS": "1"}, require_token=False).workers == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(8)), raising=False)
    limit = tmp_path / "cpu.max"
    for text, expected in (("150000 100000\n", 2), ("max 100000\n", 8), ("50000 100000", 1),
                           ("garbage", 8)):  # a container's CPU limit, rounded up
        limit.write_text(text)
        assert usable_cores(limit) == expected
    assert usable_cores(tmp_path / "absent") == 8
    assert Config.from_env({"TRACTOR_WORKERS": "0"}, require_token=False).workers == 0
    for bad in ("-1", "17", "two", "autos"):
        with pytest.raises(ConfigError, match="TRACTOR_WORKERS"):
            Config.from_env({"TRACTOR_WORKERS": bad}, require_token=False)
    assert Config().workers == 0  # tests and SimCord: threads


async def test_threads_by_default() -> None:
    workers = offload.Workers()
    assert workers.count == 0 and workers.pool is None
    assert await workers.run(divmod, 7, 2) == (3, 1)


def dealt() -> Match:
    match, _ = Match.new(RuleSet()).apply(StartHand(5))
    assert match.phase is Phase.DECLARING
    return match


async def test_a_worker_process_draws_the_same_picture(pool: offload.Workers) -> None:
    match = dealt()
    assert pool.count == 1
    view = match.view_for(0)
    drawn = await pool.run(_draw_hand, view, "en", (), True)
    assert drawn == _draw_hand(view, "en", (), True)
    assert drawn.startswith(b"\x89PNG")


def test_a_hand_picture_is_keyed_on_what_it_shows() -> None:
    match = dealt()
    before = hand_key(match.view_for(1), "en", (), True)
    moved, _ = match.apply(Pass(0))
    assert moved.public_view() != match.public_view()
    # another seat acted: seat 1's cards, trump and level are the same, so is the key
    assert hand_key(moved.view_for(1), "en", (), True) == before
    assert hand_key(match.view_for(1), "zh_Hans", (), True) != before
    assert hand_key(match.view_for(2), "en", (), True) != before


# ---- the workers' queue: people first -----------------------------------------------

def _which(name: str) -> str:
    return name


async def test_waiting_jobs_go_to_the_workers_people_first(pool: offload.Workers) -> None:
    await pool.run(_which, "warm")  # the worker is up
    finished: list[str] = []

    async def job(name: str, priority: int) -> None:
        finished.append(await pool.run(_which, name, priority=priority))

    # one worker: one job is handed over; the rest wait in the bot's process
    jobs = [asyncio.ensure_future(job(name, priority)) for name, priority in [
        ("first", offload.COMPUTERS), ("second", offload.COMPUTERS),
        ("table", offload.PICTURES), ("computer", offload.COMPUTERS),
        ("hand", offload.PEOPLE)]]
    await asyncio.gather(*jobs)
    assert finished == ["first", "hand", "table", "second", "computer"]


class _HeldPool:
    """A pool whose jobs answer only when the test says (no process, no clock)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, asyncio.Future[str]]] = []

    def submit(self, fn: Any, args: tuple[Any, ...]) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.sent.append((args[0], future))
        return future


async def test_a_persons_job_overtakes_queued_computer_jobs() -> None:
    """A backlog of computer turns and table pictures: a person's job goes to the worker
    at once, behind at most the job it is running, and is answered before the backlog."""
    workers = offload.Workers(0)
    held = _HeldPool()
    workers.count, workers.pool = 1, held  # type: ignore[assignment]
    backlog = [asyncio.ensure_future(workers.run(_which, f"computer{n}",
                                                 priority=offload.COMPUTERS))
               for n in range(5)]
    backlog += [asyncio.ensure_future(workers.run(_which, "table",
                                                  priority=offload.PICTURES))]
    for _ in range(3):
        await asyncio.sleep(0)
    assert [name for name, _ in held.sent] == ["computer0"]  # one in flight, five wait
    person = asyncio.ensure_future(workers.run(_which, "hand", priority=offload.PEOPLE))
    for _ in range(3):
        await asyncio.sleep(0)
    assert [name for name, _ in held.sent] == ["computer0", "hand"]  # sent at once
    for _ in range(7):
        name, future = next((n, f) for n, f in held.sent if not f.done())
        future.set_result(name)
        for _ in range(3):
            await asyncio.sleep(0)
    assert await person == "hand"
    assert [name for name, _ in held.sent] == [
        "computer0", "hand", "table", "computer1", "computer2", "computer3", "computer4"]
    assert [await job for job in backlog] == [
        "computer0", "computer1", "computer2", "computer3", "computer4", "table"]


async def test_a_picture_asked_twice_while_drawn_is_drawn_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    workers = offload.Workers()
    real = workers.run

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn.__name__)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(workers, "run", counting)
    view = dealt().view_for(3)
    pictures = Pictures(workers)
    first, second = await asyncio.gather(pictures.hand_picture(view, "en"),
                                         pictures.hand_picture(view, "en"))
    assert first == second and calls == ["_draw_hand"]
    assert await pictures.hand_picture(view, "en") == first and calls == ["_draw_hand"]


# ---- faults: a worker that dies or hangs -----------------------------------------------

def _worker_pids(workers: offload.Workers) -> list[int]:
    return list(workers.pool._processes) if workers.pool is not None else []  # type: ignore[arg-type]


async def test_a_killed_worker_is_replaced_and_its_jobs_answered(pool: offload.Workers) -> None:
    first_pid = await pool.run(os.getpid)
    in_flight = asyncio.ensure_future(pool.run(sleep_for, 0.5))
    await asyncio.sleep(0.2)
    os.kill(first_pid, signal.SIGKILL)
    second_pid = await in_flight  # tried again in the new pool
    assert second_pid != first_pid
    view = dealt().view_for(0)
    assert (await pool.run(_draw_hand, view, "en", (), True)).startswith(
        b"\x89PNG")


async def test_a_stuck_worker_is_killed_and_the_job_tried_again(tmp_path: Path) -> None:
    workers = offload.Workers(1, timeout=3.0)
    try:
        # Started and warm (the timeout counts from here on), the jobs' module imported: a
        # worker (nice 10) still importing the stuck job's module past the timeout on a busy
        # machine was killed before it got stuck, and its replacement slept the full 60 s.
        await workers.run(sleep_for, 0.0)
        stuck = _worker_pids(workers)
        assert await workers.run(slow_once, str(tmp_path / "marker")) == "drawn"
        assert _worker_pids(workers) and not set(stuck) & set(_worker_pids(workers))
        for pid in stuck:  # the stuck worker was killed, not left on its core
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        workers.shutdown()


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_table_keeps_going_after_its_worker_died(tmp_path: Path, workers: int) -> None:
    # two workers: starting the second process polls the first on SimCord's standing clock
    async with world(tmp_path, humans=1, workers=workers) as w:
        assert w.bot.workers.count == workers
        await w.open_table(1)
        await w.start()
        user = w.users[0]
        before = w.dm_panel(user)
        assert before.attachments and _worker_pids(w.bot.workers)
        for pid in _worker_pids(w.bot.workers):
            os.kill(pid, signal.SIGKILL)
        step = (await w.doc()).step
        button = find(before, "pass")
        assert button is not None
        await user.user.click(before, custom_id=button.custom_id)
        await w.bot.publisher.idle()
        doc = await w.doc()
        assert doc.step > step  # the computers (in the new worker) answered too
        after = w.dm_panel(user)
        assert after.attachments  # and the pictures came back


async def test_a_worker_starting_up_slowly_is_not_taken_for_stuck() -> None:
    workers = offload.Workers(1, timeout=0.5)
    try:  # the first answer (start-up and imports included) may take longer than that
        pid = await workers.run(sleep_for, 1.5)
        assert await workers.run(os.getpid) == pid
    finally:
        workers.shutdown()
