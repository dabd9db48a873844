"""Live tables: create/load, compare-and-set saves, records written in the same transaction."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from storage_helpers import FakeClock

from bot.storage import (
    HandAction,
    HandRecord,
    MatchRecord,
    StaleVersion,
    Store,
    StoredTable,
    TableExists,
    TableNotFound,
)

PLAYERS = (11, 12, 13, 14)


def match_for(t: StoredTable, **kw: object) -> MatchRecord:
    return replace(MatchRecord(match_key=f"{t.id}:1", table_id=t.id, guild_id=t.guild_id,
                               channel_id=t.channel_id, players=PLAYERS, mode="teams",
                               levels=("2",) * 4), **kw)  # type: ignore[arg-type]


def hand_for(t: StoredTable, no: int = 1, **kw: object) -> HandRecord:
    return replace(HandRecord(hand_key=f"{t.id}:1:{no}", match_key=f"{t.id}:1", table_id=t.id,
                              hand_no=no, seed=2**80 + no, level="2", players=PLAYERS,
                              mode="teams"),
                   **kw)  # type: ignore[arg-type]


async def test_create_load_and_list_tables(store: Store, clock: FakeClock) -> None:
    t = await store.create_table(1, 100, 11, {"seats": [11, None, None, None]}, deadline=5.0)
    assert (t.status, t.version, t.deadline) == ("lobby", 1, 5.0)
    assert t.doc == {"seats": [11, None, None, None]}
    assert t.created_at == t.updated_at == clock.now
    assert await store.load_table(t.id) == t
    assert await store.table_in_channel(100) == t
    assert await store.table_in_channel(101) is None
    assert await store.load_table(999) is None

    with pytest.raises(TableExists) as err:
        await store.create_table(1, 100, 12, {})
    assert err.value.table_id == t.id
    other = await store.create_table(2, 200, 12, {"n": 2})
    assert [x.id for x in await store.active_tables()] == [t.id, other.id]

    with pytest.raises(StaleVersion):
        await store.end_table(t.id, 7)
    await store.end_table(t.id, 1)
    with pytest.raises(StaleVersion, match="has ended"):
        await store.save_table(t.id, 2, {})
    ended = await store.load_table(t.id)
    assert ended is not None and (ended.status, ended.version, ended.deadline) == ("ended", 2, None)
    assert await store.table_in_channel(100) is None
    assert [x.id for x in await store.active_tables()] == [other.id]
    again = await store.create_table(1, 100, 13, {})  # the channel is free again
    assert again.id not in (t.id, other.id)


async def test_save_bumps_version_and_keeps_deadline_unless_given(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {"v": 0}, deadline=50.0)
    t2 = await store.save_table(t.id, 1, {"v": 1}, status="playing")
    assert (t2.version, t2.status, t2.doc, t2.deadline) == (2, "playing", {"v": 1}, 50.0)
    t3 = await store.save_table(t.id, 2, {"v": 2}, deadline=None)
    assert (t3.version, t3.deadline) == (3, None)
    t4 = await store.save_table(t.id, 3, {"v": 3}, deadline=99.5)
    assert await store.load_table(t.id) == t4 and t4.deadline == 99.5
    with pytest.raises(TableNotFound):
        await store.save_table(12345, 1, {})


async def test_stale_version_writes_nothing(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {"v": 0})
    t = await store.save_table(t.id, 1, {"v": 1}, match=match_for(t), hand=hand_for(t))
    with pytest.raises(StaleVersion) as err:
        await store.save_table(
            t.id, 1, {"v": "stale"}, status="ended", deadline=1.0,
            match=match_for(t, levels=("5", "2", "5", "2")), hand=hand_for(t, 2),
            actions=[HandAction(f"{t.id}:1:1", 0, {"x": 1})],
        )
    assert (err.value.expected, err.value.actual) == (1, 2)
    assert await store.load_table(t.id) == t
    assert await store.hand_record(f"{t.id}:1:2") is None
    h1 = await store.hand_record(f"{t.id}:1:1")
    assert h1 is not None and h1.actions == []
    m = await store.match_record(f"{t.id}:1")
    assert m is not None and m.levels[0] == "2"


async def test_invalid_record_rolls_back_the_whole_save(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {"v": 0})
    with pytest.raises(ValueError, match="unknown hand"):
        await store.save_table(t.id, 1, {"v": 1}, match=match_for(t),
                               actions=[HandAction("nope", 0, {})])
    assert await store.match_record(f"{t.id}:1") is None
    assert await store.load_table(t.id) == t
    with pytest.raises(ValueError, match="no match"):
        await store.save_table(t.id, 1, {"v": 1}, hand=hand_for(t))
    with pytest.raises(ValueError, match="starter's side"):
        await store.save_table(t.id, 1, {}, match=match_for(t), hand=hand_for(t, declarers=(0, 1)))
    t = await store.save_table(t.id, 1, {}, match=match_for(t), hand=hand_for(t),
                               actions=[HandAction(f"{t.id}:1:1", 0, {})])
    with pytest.raises(ValueError, match="already has action 0"):
        await store.save_table(t.id, t.version, {}, actions=[HandAction(f"{t.id}:1:1", 0, {})])
    settled = hand_for(t, declarers=(1, 3), result_side="opponents", result_levels=2)
    t = await store.save_table(t.id, t.version, {}, hand=settled)
    with pytest.raises(ValueError, match="already settled"):
        await store.save_table(t.id, t.version, {}, hand=replace(settled, result_levels=3))
    assert await store.load_table(t.id) == t


async def test_concurrent_saves_with_same_version_one_wins(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {"v": 0})
    results = await asyncio.gather(
        store.save_table(t.id, 1, {"who": "a"}), store.save_table(t.id, 1, {"who": "b"}),
        return_exceptions=True,
    )
    wins = [r for r in results if isinstance(r, StoredTable)]
    assert len(wins) == 1 and sum(isinstance(r, StaleVersion) for r in results) == 1
    assert await store.load_table(t.id) == wins[0] and wins[0].version == 2


async def test_concurrent_saves_from_two_connections_one_wins(
    target: str | Path, clock: FakeClock
) -> None:
    a = await Store.open(target, clock=clock)
    b = await Store.open(target, clock=clock)
    try:
        t = await a.create_table(1, 100, 11, {"v": 0})
        for round_ in range(1, 6):
            results = await asyncio.gather(
                a.save_table(t.id, round_, {"who": "a"}), b.save_table(t.id, round_, {"who": "b"}),
                return_exceptions=True,
            )
            assert sum(isinstance(r, StoredTable) for r in results) == 1, results
            assert sum(isinstance(r, StaleVersion) for r in results) == 1, results
        final = await b.load_table(t.id)
        assert final is not None and final.version == 6
    finally:
        await a.close()
        await b.close()


async def test_hand_record_replays_seed_and_actions(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {})
    key = f"{t.id}:1:1"
    t = await store.save_table(
        t.id, 1, {}, match=match_for(t), hand=hand_for(t),
        actions=[HandAction(key, 0, {"type": "deal", "seat": 0})],
    )
    for seq in (1, 2):
        t = await store.save_table(t.id, t.version, {},
                                   actions=[HandAction(key, seq, {"type": "play", "n": seq})])
    final = hand_for(t, trump="2NT", starter=1, declarers=(1, 3), kitty=["AS", "AS", "BJ"],
                     opponent_points=85, kitty_points=10, multiplier=2,
                     result_side="opponents", result_levels=0)
    t = await store.save_table(t.id, t.version, {}, hand=final)
    loaded = await store.hand_record(key)
    assert loaded == final and loaded.id is not None
    assert loaded.seed == 2**80 + 1 and loaded.kitty == ["AS", "AS", "BJ"]
    assert loaded.actions == [{"type": "deal", "seat": 0}, {"type": "play", "n": 1},
                              {"type": "play", "n": 2}]
    assert await store.hand_record(loaded.id) == loaded
    assert await store.match_hands(f"{t.id}:1") == [loaded]


async def test_settings_defaults_changes_and_persistence(
    store: Store, target: str | Path, clock: FakeClock
) -> None:
    g = await store.guild_settings(5)
    assert (g.language, g.table_options) == ("en", {})
    g = await store.set_guild_settings(5, table_options={"turn_timer": 60, "variant": "R12a"})
    g = await store.set_guild_settings(5, language="zh-CN")
    assert (g.language, g.table_options) == ("zh-CN", {"turn_timer": 60, "variant": "R12a"})

    u = await store.user_settings(9)
    assert (u.four_colour, u.panel, u.language) == (True, "dm", None)
    await store.set_user_settings(9, four_colour=False, language="zh-TW")
    u = await store.set_user_settings(9, panel="ephemeral")
    assert (u.four_colour, u.panel, u.language) == (False, "ephemeral", "zh-TW")
    changes = {"language": None}
    u = await store.set_user_settings(9, **changes)  # type: ignore[arg-type]
    assert u.language is None
    with pytest.raises(ValueError):
        await store.set_user_settings(9, panel="channel")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        await store.set_user_settings(9, colour=True)  # type: ignore[call-arg]

    await store.close()
    reopened = await Store.open(target, clock=clock)
    try:
        assert await reopened.user_settings(9) == u
        assert await reopened.guild_settings(5) == g
    finally:
        await reopened.close()


async def test_cancelled_save_leaves_store_usable(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {"v": 0})
    for ticks in range(12):  # cancel at different points of the transaction
        current = await store.load_table(t.id)
        assert current is not None
        task = asyncio.create_task(store.save_table(
            t.id, current.version, {"v": ticks}, match=match_for(t, hands_played=ticks)))
        for _ in range(ticks):
            await asyncio.sleep(0)
        task.cancel()
        try:
            saved = await task
        except asyncio.CancelledError:
            after = await store.load_table(t.id)
            assert after is not None and after.version in (current.version, current.version + 1)
        else:
            assert saved.version == current.version + 1
    latest = await store.load_table(t.id)
    assert latest is not None
    assert (await store.save_table(t.id, latest.version, {"ok": True})).doc == {"ok": True}


async def test_a_move_is_one_transaction_without_redundant_reads(sqlite_store: Store) -> None:
    store = sqlite_store
    t = await store.create_table(1, 100, 11, {"v": 0})
    t = await store.save_table(t.id, 1, {"v": 1}, match=match_for(t), hand=hand_for(t))
    statements: list[str] = []
    writer = store._db._writer
    writer.set_trace_callback(statements.append)
    try:
        await store.save_table(t.id, t.version, {"v": 2},
                               actions=[HandAction(f"{t.id}:1:1", 0, {"play": ["AS"]})])
    finally:
        writer.set_trace_callback(None)
    kinds = [s.split()[0].upper() for s in statements]
    if kinds[0] == "PRAGMA":  # the write budget, only when it changed (test_loop_database)
        statements, kinds = statements[1:], kinds[1:]
    assert kinds == ["BEGIN", "SELECT", "INSERT", "UPDATE", "COMMIT"], statements
    assert "doc" not in statements[1]  # the version check does not read the document


async def test_save_stores_the_arguments_as_they_were_when_called(store: Store) -> None:
    t = await store.create_table(1, 100, 11, {"v": 0})
    doc: dict[str, object] = {"v": 1}
    action: dict[str, object] = {"play": ["AS"]}
    task = asyncio.create_task(store.save_table(
        t.id, 1, doc, match=match_for(t), hand=hand_for(t),
        actions=[HandAction(f"{t.id}:1:1", 0, action)]))
    await asyncio.sleep(0)  # handed to the database thread
    doc["v"] = "changed"
    action["play"] = ["changed"]
    saved = await task
    assert saved.doc == {"v": 1} and saved.doc is not doc
    assert (await store.load_table(t.id)) == saved
    hand = await store.hand_record(f"{t.id}:1:1")
    assert hand is not None and hand.actions == [{"play": ["AS"]}]


async def test_ids_beyond_sqlite_integers_are_simply_not_found(store: Store) -> None:
    huge = 2**63
    assert await store.load_table(huge) is None
    assert await store.table_in_channel(huge) is None
    assert await store.hand_record(huge) is None
    with pytest.raises(TableNotFound):
        await store.save_table(huge, 1, {})
    with pytest.raises(TableNotFound):
        await store.end_table(-(2**63) - 1, 1)


async def test_a_save_does_not_parse_the_document_it_wrote(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved record carries the document given (a copy of its keys), not the stored
    JSON parsed back on the database thread."""
    import bot.storage.tables as tables

    t = await store.create_table(1, 100, 11, {"v": 0})

    def no_parsing(text: str) -> object:
        raise AssertionError("parsed again")

    monkeypatch.setattr(tables.json, "loads", no_parsing)
    doc: dict[str, object] = {"v": 1, "seats": [11]}
    saved = await store.save_table(t.id, 1, doc)
    doc["v"] = 2
    assert saved.doc == {"v": 1, "seats": [11]} and saved.doc is not doc
    monkeypatch.undo()
    assert await store.load_table(t.id) == saved
