"""`bot.services.timers.Timers` on loop timer handles (issue 16): re-arming replaces the deadline,
a cancelled or replaced deadline never fires, and only a due one starts a task."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.timers import Timers


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_only_the_last_armed_step_fires_and_a_cancelled_one_never() -> None:
    fired: list[tuple[int, int]] = []
    done = asyncio.Event()

    async def fire(table_id: int, step: int) -> None:
        fired.append((table_id, step))
        done.set()

    timers = Timers(fire, clock=lambda: 100.0)
    timers.arm(1, 100.0, 1)
    timers.arm(1, 100.0, 2)  # a new step replaces it
    timers.arm(2, 100.0, 5)
    timers.cancel(2)
    timers.arm(3, 1e9, 7)  # far away: pending
    assert timers.deadline(1) == 100.0 and timers.deadline(2) is None
    tasks_before = len(asyncio.all_tasks())
    timers.arm(3, 1e9, 7)  # the same deadline and step: nothing changes
    assert len(asyncio.all_tasks()) == tasks_before  # pending deadlines are not tasks
    await done.wait()
    await settle()
    assert fired == [(1, 2)]
    assert timers.deadline(1) is None and timers.deadline(3) == 1e9
    await timers.close()
    assert timers.deadline(3) is None


@pytest.mark.asyncio
async def test_a_firing_timer_may_arm_the_next_one() -> None:
    steps: list[int] = []
    done = asyncio.Event()

    async def fire(table_id: int, step: int) -> None:
        steps.append(step)
        if step < 3:
            timers.arm(table_id, 0.0, step + 1)  # the move it made armed the next step
        else:
            done.set()

    timers = Timers(fire, clock=lambda: 0.0)
    timers.arm(9, 0.0, 1)
    await done.wait()
    assert steps == [1, 2, 3] and timers.deadline(9) is None
    await timers.close()
