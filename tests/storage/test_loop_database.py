"""The writer's per-write cost (issue 16): the write budget (``busy_timeout``) is set as a
statement of its own only when it changes, not before every write."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from storage_helpers import FakeClock

from bot.storage.sqlite.database import Database, _busy_ms


def test_the_busy_timeout_never_exceeds_the_budget_and_moves_in_steps() -> None:
    assert _busy_ms(2.0) == 2000 and _busy_ms(1.99987) == 1900
    assert _busy_ms(0.25) == 200 and _busy_ms(0.0999) == 99 and _busy_ms(0.0) == 1


async def test_writes_share_one_busy_timeout_statement(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "t.sqlite3"), clock=FakeClock())
    seen: list[str] = []
    try:
        db._writer.set_trace_callback(seen.append)
        for n in range(5):
            await db.write(lambda conn, n=n: conn.execute(
                "UPDATE schema_version SET applied_at = ?", (n,)))
    finally:
        await db.close()
    assert sum("busy_timeout" in sql for sql in seen) <= 2  # not one per write (5)
    assert sum(sql.startswith("UPDATE schema_version") for sql in seen) == 5


async def test_answers_finishing_together_share_one_wakeup_in_order(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "t.sqlite3"), clock=FakeClock())
    try:
        await db.read(lambda conn: None)  # the mailbox exists
        mailbox = db._mailbox
        assert mailbox is not None
        jobs = [asyncio.ensure_future(db.write(lambda conn, n=n: n)) for n in range(3)]
        await asyncio.sleep(0)  # submitted; the loop is held until all three are answered
        deadline = time.perf_counter() + 60  # a hang detector only
        while len(mailbox._items) < 3 and time.perf_counter() < deadline:
            time.sleep(0.01)
        before = mailbox.wakeups
        assert await asyncio.gather(*jobs) == [0, 1, 2]  # each its own answer, once
        assert mailbox.wakeups - before == 1
        assert not mailbox._items
    finally:
        await db.close()
