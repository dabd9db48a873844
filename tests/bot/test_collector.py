"""Garbage-collector pauses (issue 16): survivors of a full collection are frozen, so the
next ones scan only newer objects; thawed now and then so old cycles are still freed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.runtime.collector import PauseGuard


@pytest.fixture
def restore_gc() -> Iterator[None]:
    try:
        yield
    finally:
        gc.unfreeze()
        gc.collect()
        gc.freeze()  # as `bot.runtime.memory.settle_heap` leaves a test process


class Cycle:
    def __init__(self) -> None:
        self.me = self


async def _next_turn() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_survivors_of_a_full_collection_are_frozen(restore_gc: None) -> None:
    now = [0.0]
    guard = PauseGuard(asyncio.get_running_loop(), thaw_every=600.0, clock=lambda: now[0])
    guard.install()
    try:
        kept = [Cycle() for _ in range(1000)]
        gc.collect()
        await _next_turn()
        assert guard.freezes == 1
        frozen = gc.get_freeze_count()
        assert frozen >= 1000
        # a full collection now scans only what is newer than the freeze
        assert sum(len(gc.get_objects(generation)) for generation in range(3)) < frozen
        now[0] = 601.0  # ten minutes on: handed back once, so cycles frozen meanwhile go
        gc.collect()
        await _next_turn()
        assert guard.thaws == 1 and gc.get_freeze_count() == 0
        gc.collect()
        await _next_turn()
        assert guard.freezes == 2  # frozen again
        gone = weakref.ref(kept[0])
        del kept
    finally:
        guard.uninstall()  # what was frozen and became garbage is collected now
    assert gone() is None and gc.get_freeze_count() > 0
    assert gc.callbacks.count(guard._collected) == 0


async def test_the_bot_installs_it_once_set_up_and_removes_it_on_close(tmp_path: Path) -> None:
    from botkit import world
    async with world(tmp_path) as w:
        assert w.bot.pause_guard is not None and w.bot.pause_guard._installed
        guard = w.bot.pause_guard
    assert not guard._installed and w.bot.pause_guard is None
