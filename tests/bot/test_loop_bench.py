"""The bench's accounting of SimCord's hooks on the event loop (issue 16): the simulator's
bookkeeping is counted as the simulated Discord's, what a real loop and the bot pay stays
the bot's."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from botkit import world
from simcord import _dpy_internals

from bot.bench import _Meter


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
                _burn(0.2)
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
        assert 0 < meter.cpu["discord"] < 0.1  # the hooks counted, not the callback
        assert {name: vars(loop)[name] for name in hooks} == hooks  # SimCord's again
        assert time.monotonic is _dpy_internals._clock_monotonic
