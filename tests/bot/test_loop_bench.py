"""The bench's accounting of SimCord's hooks on the event loop (issue 16): the simulator's
bookkeeping is counted as the simulated Discord's, what a real loop and the bot pay stays
the bot's."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import pytest
from botkit import world
from simcord import _dpy_internals

from tools.bench import _Meter

BURN = 0.5
"""Thread CPU seconds the bot's callback spends."""


def _burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_simcord_loop_hooks_are_the_simulators_and_callbacks_the_bots(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        loop = asyncio.get_running_loop()
        hooks = {name: vars(loop)[name] for name, _ in _Meter.LOOP_HOOKS}
        meter = _Meter()
        found = meter.loop_hooks(loop)
        try:
            assert set(found) == {"monotonic", *hooks}  # SimCord 3.2.1 has them all
            done = asyncio.Event()

            def work() -> None:  # the bot's callback: its CPU is the bot's
                _burn(BURN)
                done.set()

            with w.env._bot_scope():  # as the bot schedules: through SimCord's tracking
                handle = loop.call_soon(work)
                for _ in range(200):
                    time.monotonic()
                    loop.call_soon(lambda: None)
            assert handle._callback is not work  # SimCord runs it in its wrapper
            await done.wait()
            await asyncio.sleep(0)
        finally:
            meter.uninstall()
        # the hooks counted, not the callback (which alone would be BURN): how much the
        # hooks cost depends on the machine, so the bound is the callback's, not a guess
        assert 0 < meter.cpu["discord"] < BURN
        assert {name: vars(loop)[name] for name in hooks} == hooks  # SimCord's again
        assert time.monotonic is _dpy_internals._clock_monotonic


async def test_simcord_callbacks_leave_no_garbage_for_the_bots_collector(
        tmp_path: Path) -> None:
    """SimCord's record of a callback and the callback's handle refer to each other: the
    bench unlinks them as the callback runs, so a collection finds nothing of them."""
    async with world(tmp_path, humans=1) as w:
        loop = asyncio.get_running_loop()
        meter = _Meter()
        meter.loop_hooks(loop)
        gc.collect()
        for _ in range(3):  # the bot's `PauseGuard` freezes what that collection left
            await asyncio.sleep(0)
        gc.disable()
        try:
            ran: list[int] = []
            with w.env._bot_scope():
                for n in range(500):
                    loop.call_soon(ran.append, n)
            while len(ran) < 500:
                await asyncio.sleep(0)
            collected = gc.collect()
        finally:
            gc.enable()
            meter.uninstall()
        assert collected < 100  # SimCord alone: a dozen objects a callback


def test_the_benchs_own_instruments_are_not_counted_as_the_bots() -> None:
    meter = _Meter()
    leaks = meter.calibrate(rounds=2000)
    assert set(leaks) == {"sim", "ours", "wrap"} and min(leaks.values()) >= 0
    feed = meter._simulated(meter._ours(lambda: None), "discord")
    apply = meter._wrap(lambda: None, "apply")
    for _ in range(5):
        feed()
        apply()
    assert meter.windows == {"sim": 5, "ours": 5, "wrap": 5}
    meter.leaks = {"sim": 1e-6, "ours": 2e-6, "wrap": 3e-6}
    assert meter.instrumentation() == pytest.approx(5 * 6e-6)


def test_a_collection_is_never_counted_in_the_window_it_came_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A collection due while a computer's ``apply`` (or the simulator) runs is the whole
    process's, not the engine's: every window leaves it out; it stays in "own"."""
    meter = _Meter()
    ticks = iter(range(1, 1000))
    monkeypatch.setattr(time, "thread_time", lambda: float(next(ticks)))
    meter.time_collections()
    try:
        apply = meter._wrap(gc.collect, "apply")  # clock: 1 in, 2-3 collecting, 4 out
        apply()
        feed = meter._simulated(meter._ours(gc.collect), "discord")  # 5, 6, 7-8, 9, 10
        feed()
    finally:
        meter.uninstall()
    assert meter.cpu["apply"] == 2.0 and meter.cpu["gc"] == 2.0
    # the simulator's window: 10 - 5, less the collection (1) and the bot's part (9 - 6 - 1)
    assert meter.cpu["discord"] == 5.0 - 1.0 - 2.0
