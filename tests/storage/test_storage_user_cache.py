"""Users' settings are read once and kept in memory (issue 16: a panel refresh reads them);
every change goes through the store, so the memory never serves an older value."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from storage_helpers import FakeClock

from bot.storage import Store


def counting_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads = [0]
    real = store._db.read

    async def read(fn: Callable[[Any], Any]) -> Any:
        reads[0] += 1
        return await real(fn)

    monkeypatch.setattr(store._db, "read", read)
    return reads


async def test_settings_are_read_once_and_changes_seen_at_once(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = counting_reads(store, monkeypatch)
    assert (await store.user_settings(9)).four_colour is True
    assert (await store.user_settings(9)).four_colour is True
    assert reads[0] == 1
    await store.set_user_settings(9, four_colour=False, panel="ephemeral")
    found = await store.user_settings(9)
    assert (found.four_colour, found.panel) == (False, "ephemeral") and reads[0] == 1


async def test_a_read_that_raced_a_change_is_not_kept(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    real = store._db.read
    release, started = asyncio.Event(), asyncio.Event()

    async def slow_read(fn: Callable[[Any], Any]) -> Any:
        found = await real(fn)  # the settings before the change
        started.set()
        await release.wait()
        return found

    monkeypatch.setattr(store._db, "read", slow_read)
    reading: Awaitable[Any] = asyncio.ensure_future(store.user_settings(4))
    await started.wait()
    monkeypatch.setattr(store._db, "read", real)
    await store.set_user_settings(4, four_colour=False)
    release.set()
    assert (await reading).four_colour is True  # that read saw the old value…
    assert (await store.user_settings(4)).four_colour is False  # …and it was not kept


async def test_stores_on_one_file_share_what_they_know(
        store: Store, target: str | Path, clock: FakeClock) -> None:
    """A restarted bot opens another store on the same file while the first may still be
    read: a change through either is what both answer."""
    assert (await store.user_settings(3)).panel == "dm"  # kept by the first store
    other = await Store.open(target, clock=clock)
    try:
        await other.set_user_settings(3, panel="ephemeral")
        assert (await store.user_settings(3)).panel == "ephemeral"
        await store.set_user_settings(3, language="zh_Hans")
        assert (await other.user_settings(3)).language == "zh_Hans"
    finally:
        await other.close()


async def test_a_store_opened_later_reads_the_file_again(
        store: Store, target: str | Path, clock: FakeClock) -> None:
    await store.user_settings(6)
    await store._db.write(lambda db: db.execute(  # another process's change
        "INSERT INTO user_settings (user_id, four_colour, panel, language, turn_ping,"
        " auto_forced, updated_at) VALUES (6, 0, 'dm', NULL, 1, 0, 0)"))
    reopened = await Store.open(target, clock=clock)
    try:
        assert (await reopened.user_settings(6)).four_colour is False
    finally:
        await reopened.close()
