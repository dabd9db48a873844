"""A database written by the release before the Store split opens, reads the same and works.

Since V3 (seasons) everything it recorded is season 1 of its guild: reads answer exactly
what the release recorded, plus the fields added since (``season`` 1, no seat changes).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from storage_helpers import FakeClock

from bot.storage import HandAction, StaleVersion, Store
from bot.storage.copy import copy_database

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ADDED_SINCE = {"season": 1, "holders": [], "turn_ping": True, "auto_forced": False,
               "mode": "teams", "levels_before": [], "levels_after": []}
"""Fields records gained after the release, with the value every release record has."""


def per_seat(value: Any) -> Any:
    """The release's records as schema 7 reads them: team A's and team B's levels
    (``levels_a``, ``levels_b``) become every seat's (A, B, A, B) and the winning team
    (``winner_team``) its seats; nothing else changes."""
    if isinstance(value, list):
        return [per_seat(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {key: per_seat(v) for key, v in value.items()
           if key not in ("levels_a", "levels_b", "winner_team")}
    if "levels_a" in value:
        out["levels"] = [value["levels_a"], value["levels_b"]] * 2
    if "winner_team" in value:
        out["winners"] = {"A": [0, 2], "B": [1, 3], None: []}[value["winner_team"]]
    return out


def fixture_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_release_db",
                                                  FIXTURES / "make_release_db.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
async def release_store(tmp_path: Path) -> AsyncIterator[Store]:
    path = tmp_path / "release.sqlite3"
    shutil.copyfile(FIXTURES / "release_v0_1.sqlite3", path)
    store = await Store.open(path, clock=FakeClock(1_800_000_000.0))
    yield store
    await store.close()


def strip_added(value: Any, found: dict[str, int]) -> Any:
    """``value`` without the `ADDED_SINCE` fields, asserting their values (counted)."""
    if isinstance(value, list):
        return [strip_added(v, found) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, v in value.items():
        if key in ADDED_SINCE and not isinstance(v, dict):
            assert v == ADDED_SINCE[key], (key, v)
            found[key] = found.get(key, 0) + 1
        else:
            out[key] = strip_added(v, found)
    return out


async def test_release_database_reads_exactly_as_the_release_did(release_store: Store) -> None:
    recorded = json.loads((FIXTURES / "release_v0_1.json").read_text("utf-8"))
    found: dict[str, int] = {}
    assert strip_added(await fixture_module().expected(release_store), found) == per_seat(
        recorded)
    assert found["season"] > 40 and found["holders"] > 5  # stats, boards, history; hands


async def test_release_database_copied_into_postgres_reads_exactly_the_same(
        tmp_path: Path, pg_url: str) -> None:
    """The release's file copied into PostgreSQL (`bot.storage.copy`: upgraded to schema 7
    on the way, ids kept) answers every read as on SQLite: the same per-seat records."""
    path = tmp_path / "release.sqlite3"
    shutil.copyfile(FIXTURES / "release_v0_1.sqlite3", path)
    info = await copy_database(path, pg_url)
    assert info.rows["matches"] > 0 and info.rows["hand_seats"] > 0
    recorded = json.loads((FIXTURES / "release_v0_1.json").read_text("utf-8"))
    store = await Store.open(pg_url, clock=FakeClock(1_800_000_000.0))
    try:
        assert strip_added(await fixture_module().expected(store), {}) == per_seat(recorded)
    finally:
        await store.close()


async def test_release_records_are_season_one(release_store: Store) -> None:
    store = release_store
    tables = [t for t in [await store.load_table(i) for i in range(1, 8)] if t is not None]
    for guild in (1, 2):
        (season,) = await store.seasons(guild)
        first = min(t.created_at for t in tables if t.guild_id == guild)
        assert (season.number, season.name, season.started_at, season.ended_at) == (
            1, None, first, None)  # season 1 started with the guild's first table
    assert await store.seasons(3) == []  # guild 3 was only ever read
    recorded = json.loads((FIXTURES / "release_v0_1.json").read_text("utf-8"))
    before = await store.stats(1, 101, mode="teams")
    assert await store.stats(1, 101, season=1, mode="teams") == before
    assert strip_added(fixture_module().plain(before), {}) == recorded["stats"]["1:101:True"]

    new = await store.start_season(1, name="after the upgrade")
    assert new.number == 2
    fresh = await store.stats(1, 101, mode="teams")
    assert (fresh.season, fresh.matches_played, fresh.rating) == (2, 0, None)
    assert await store.stats(1, 101, season=1, mode="teams") == before
    board = await store.leaderboard(1, "rating", "players", 1, per_page=3, season=1, mode="teams")
    assert strip_added(fixture_module().plain(board), {}) == (
        recorded["leaderboards"]["1:rating:players:1"])


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
