"""A database written by the release before the Store split opens, reads the same and works."""

from __future__ import annotations

import importlib.util
import json
import shutil
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from storage_helpers import FakeClock

from bot.storage import HandAction, StaleVersion, Store

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_release_db",
                                                  FIXTURES / "make_release_db.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
async def release_store(tmp_path: Path) -> Store:
    path = tmp_path / "release.sqlite3"
    shutil.copyfile(FIXTURES / "release_v0_1.sqlite3", path)
    store = await Store.open(path, clock=FakeClock(1_800_000_000.0))
    yield store  # type: ignore[misc]
    await store.close()


async def test_release_database_reads_exactly_as_the_release_did(release_store: Store) -> None:
    recorded = json.loads((FIXTURES / "release_v0_1.json").read_text("utf-8"))
    assert await fixture_module().expected(release_store) == recorded


async def test_release_database_takes_moves_and_new_tables(release_store: Store) -> None:
    store = release_store
    mid_match, lobby, playing = await store.active_tables()
    assert (mid_match.channel_id, lobby.channel_id, playing.channel_id) == (20, 40, 41)
    with pytest.raises(StaleVersion):
        await store.save_table(playing.id, playing.version - 1, {})
    hand = await store.hand_record("L:1")
    assert hand is not None and len(hand.actions) == 3
    saved = await store.save_table(
        playing.id, playing.version, {"phase": "scored"},
        hand=replace(hand, actions=(), result_side="declarers", result_levels=1),
        actions=[HandAction("L:1", 3, {"type": "end"})])
    assert saved.version == playing.version + 1
    settled = await store.hand_record("L:1")
    assert settled is not None and settled.result_side == "declarers"
    assert settled.actions[-1] == {"type": "end"}
    await store.end_table(saved.id, saved.version)
    new = await store.create_table(2, 41, 7, {"phase": "lobby"})
    assert new.id > saved.id and await store.table_in_channel(41) == new
    assert (await store.set_user_settings(7, panel="ephemeral")).panel == "ephemeral"
