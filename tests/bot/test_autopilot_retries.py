"""Issue 37: what the bot does by itself is never dropped on a storage error. A computer
move, a timer's move and a table's restore that the database refused for a while (busy,
out of reach, or an SQLite write lock another process holds past the write timeout) are
tried again, with growing pauses on the simulated clock, until they are done."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from botkit import SQLITE, World, make_bot, world

from bot.services import autopilot
from bot.storage import DatabaseUnavailable, StorageBusy
from engine.game import Phase


class Faults:
    """The store's writes fail on demand: those made by the bot's own tasks whose names
    start with `tasks` (``tractor-computer``, ``tractor-timer``, ...; "" for every write),
    while `on`; `tried` counts the refused ones."""

    def __init__(self, w: World, monkeypatch: pytest.MonkeyPatch, tasks: str = "") -> None:
        self.on = False
        self.tried = 0
        engine = type(w.bot.store._db)
        original = engine.write

        async def write(db: Any, job: Any, **kwargs: Any) -> Any:
            task = asyncio.current_task()
            name = "" if task is None else task.get_name()
            if self.on and name.startswith(tasks):
                self.tried += 1
                error = StorageBusy if self.tried % 2 else DatabaseUnavailable
                raise error(db.path, "down") if error is DatabaseUnavailable else error(
                    db.path, db.write_timeout)
            return await original(db, job, **kwargs)
        monkeypatch.setattr(engine, "write", write)


@contextmanager
def foreign_write_lock(path: Path) -> Iterator[None]:
    """Another process holds SQLite's one write lock (a hostile client, a long backup)."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def computers_answered(w: World) -> bool:
    match = await w.match()
    return match.phase is not Phase.DECLARING or match.public_view().awaiting == (0,)


async def test_a_computer_move_refused_by_the_database_is_tried_until_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1, users=1, action_delay=1.0) as w:
        await w.open_table(1, declare_window=120)
        faults = Faults(w, monkeypatch, "tractor-computer")
        faults.on = True
        await w.start()
        for _ in range(10):  # the database refuses for 10 simulated seconds
            await w.env.advance_time(1.0)
        assert faults.tried >= 6  # tried again and again, pausing in between
        assert not await computers_answered(w)
        faults.on = False
        await w.env.advance_time(autopilot.RETRY_MOST + 0.1)
        assert await computers_answered(w)


async def test_a_computer_move_waits_out_a_foreign_sqlite_write_lock(
        tmp_path: Path) -> None:
    """A real lock held past the write timeout (`StorageBusy` on SQLite), then let go."""
    path = SQLITE(tmp_path)
    async with world(tmp_path, humans=1, users=1, database=path, action_delay=1.0) as w:
        await w.open_table(1, declare_window=120)
        await w.start()
        w.bot.store._db.write_timeout = 0.05  # type: ignore[attr-defined]
        with foreign_write_lock(path):
            for _ in range(5):
                await w.env.advance_time(1.0)
            assert not await computers_answered(w)
        await w.env.advance_time(autopilot.RETRY_MOST + 0.1)
        assert await computers_answered(w)


async def test_a_timer_move_refused_by_the_database_is_tried_until_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1, users=1) as w:
        await w.open_table(1, turn_timer=30, declare_window=5)
        await w.start()
        for _ in range(60):  # the window closes on its timer, then the human's turn
            match = await w.match()
            if match.phase in (Phase.BURYING, Phase.PLAYING) and \
                    match.public_view().turn == 0:
                break
            await w.env.advance_time(6)
        else:
            raise AssertionError("never the human's turn")
        step = (await w.doc()).step
        faults = Faults(w, monkeypatch, "tractor-timer")
        faults.on = True
        await w.env.advance_time(61)  # the deadline passes while the database refuses
        for _ in range(5):
            await w.env.advance_time(1.0)
        assert faults.tried >= 3 and (await w.doc()).step == step
        faults.on = False
        await w.env.advance_time(autopilot.RETRY_MOST + 0.1)
        doc = await w.doc()
        assert doc.step > step and doc.seat(0).misses == 1  # the computer played for them


async def test_a_table_whose_restore_the_database_refused_is_restored_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with world(tmp_path, humans=1, users=1) as w:
        await w.open_table(1, declare_window=120)
        await w.start()
        refusals = [0]
        engine = type(w.bot.store._db)
        original = engine.write

        async def write(db: Any, job: Any, **kwargs: Any) -> Any:
            if refusals[0] > 0:  # the first write after the restart: the restore's
                refusals[0] -= 1
                raise StorageBusy(db.path, db.write_timeout)
            return await original(db, job, **kwargs)
        monkeypatch.setattr(engine, "write", write)
        await w.env.settle()
        await w.bot.close_store()
        refusals[0] = 1
        await w.env.restart_bot(make_bot(w.database, **w.changes))
        await w.env.advance_time(2 * autopilot.RETRY_MOST)
        assert refusals[0] == 0 and "not restored yet" in caplog.text
        assert (await w.doc()).restored  # it used to be skipped for good


def test_retry_pauses_grow_to_a_second_and_are_jittered() -> None:
    top = [autopilot.retry_pause(n, lambda: 1.0) for n in range(8)]
    assert top[0] == autopilot.RETRY_FIRST and top == sorted(top)
    assert top[-1] == autopilot.RETRY_MOST
    assert autopilot.retry_pause(9, lambda: 0.0) == autopilot.RETRY_MOST / 2


async def test_bookkeeping_whose_idle_save_was_refused_is_saved_at_the_next_idle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DM panel's message id (saved on its own once the table is idle) survives a
    refused save: it is tried again after another idle spell, not left for a next move."""
    from test_restart_panels import IDLE, newest_panel_pending

    from bot.services.repository import META_IDLE

    async with world(tmp_path, humans=1, **IDLE) as w:
        seat, newest = await newest_panel_pending(w)
        faults = Faults(w, monkeypatch)
        faults.on = True
        await w.env.advance_time(META_IDLE + 1)  # the idle save is refused
        assert faults.tried >= 1
        faults.on = False
        await w.env.advance_time(META_IDLE + 1)
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None
        assert stored.doc["seats"][seat]["panel_message"] == newest
