"""Opening, migrating, and refusing databases we must not touch."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from storage_helpers import FakeClock

from bot.storage import DatabaseCorrupt, SchemaTooNew, StorageError, Store
from bot.storage.sqlite.migrate import LATEST_VERSION, MIGRATIONS, migrate, split_statements

ALL = [(1, "initial"), (2, "stats_views"), (3, "seasons"), (4, "turn_settings"),
       (5, "friends"), (6, "cluster"), (7, "seats")]


def versions(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()


def objects(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


async def test_fresh_database_is_created_with_all_migrations(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "nested" / "dir" / "t.sqlite3"  # parent dirs are created
    store = await Store.open(path, clock=clock)
    try:
        assert store.schema_version == LATEST_VERSION == 7
        assert await store._db.read(lambda db: db.execute("PRAGMA foreign_keys").fetchone()[0])
        assert await store._db.write(lambda db: db.execute("PRAGMA foreign_keys").fetchone()[0])
    finally:
        await store.close()
    assert versions(path) == ALL
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x54524354
    # Reopening is a no-op.
    store = await Store.open(path, clock=clock)
    await store.close()
    assert versions(path) == ALL


async def test_v1_database_is_migrated_to_v2_keeping_data(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "v1.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrate(conn, clock, target=1) == 1
        conn.execute("INSERT INTO guilds (guild_id, language, updated_at) VALUES (7, 'zh-TW', 0)")
    finally:
        conn.close()
    assert versions(path) == [(1, "initial")]
    assert "settled_hand_seats" not in objects(path)

    store = await Store.open(path, clock=clock)
    try:
        assert (await store.guild_settings(7)).language == "zh-TW"
    finally:
        await store.close()
    assert versions(path) == ALL
    assert {"settled_hand_seats", "finished_match_seats", "hand_seats_user"} <= objects(path)


async def test_newer_schema_is_refused_and_untouched(db_path: Path, clock: FakeClock) -> None:
    await (await Store.open(db_path, clock=clock)).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'from_the_future', 0)")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNew) as err:
        await Store.open(db_path, clock=clock)
    assert err.value.found == 99 and err.value.known == LATEST_VERSION
    assert "schema version 99" in str(err.value) and "not modified" in str(err.value)
    assert db_path.read_bytes() == before


async def test_garbage_file_is_refused_and_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    garbage = b"this is not a database\n" * 500
    db_path.write_bytes(garbage)
    with pytest.raises(DatabaseCorrupt) as err:
        await Store.open(db_path)
    assert isinstance(err.value, StorageError)
    assert str(db_path) in str(err.value) and "not an SQLite database" in str(err.value)
    assert db_path.read_bytes() == garbage


async def test_damaged_pages_are_refused_and_untouched(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path, clock=clock)
    await store.set_guild_settings(1, table_options={"x": "y" * 5000})
    await store.close()
    data = bytearray(db_path.read_bytes())
    page = 4096
    data[page + 10 : 3 * page] = b"\xa5" * (2 * page - 10)  # trash pages 2-3 (schema btrees)
    db_path.write_bytes(bytes(data))
    with pytest.raises(DatabaseCorrupt):
        await Store.open(db_path, clock=clock)
    assert db_path.read_bytes() == bytes(data)


async def test_foreign_sqlite_database_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(DatabaseCorrupt, match="not a Tractor database"):
        await Store.open(db_path)
    assert db_path.read_bytes() == before


def test_migration_files_split_into_statements() -> None:
    assert [m.version for m in MIGRATIONS] == [1, 2, 3, 4, 5, 6, 7]
    stmts = split_statements("-- c\nCREATE TABLE a (x);\n-- tail comment\nSELECT ';';\n")
    assert stmts == ["-- c\nCREATE TABLE a (x);", "-- tail comment\nSELECT ';';"]
    with pytest.raises(RuntimeError):
        split_statements("CREATE TABLE b (x)")


async def test_v2_database_is_migrated_to_v3_as_season_one(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Guilds get season 1 (from their first table, else their settings row), matches are
    season 1, ratings become season 1 ratings, hand seats have no holders."""
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrate(conn, clock, target=2) == 2
        conn.executescript("""
            INSERT INTO guilds (guild_id, updated_at) VALUES (1, 50), (2, 70);
            INSERT INTO tables (id, guild_id, channel_id, creator_id, status, version, doc,
                                created_at, updated_at)
                VALUES (1, 1, 10, 5, 'playing', 1, '{}', 40, 40),
                       (2, 1, 11, 5, 'lobby', 1, '{}', 60, 60);
            INSERT INTO matches (id, match_key, table_id, guild_id, channel_id, levels_a,
                                 levels_b, ranked, started_at)
                VALUES (1, 'M', 1, 1, 10, '2', '2', 1, 41);
            INSERT INTO hands (id, hand_key, match_id, table_id, hand_no, seed, level,
                               started_at) VALUES (1, 'M:1', 1, 1, 1, '7', '2', 42);
            INSERT INTO hand_seats VALUES (1, 0, 5), (1, 1, 6), (1, 2, 7), (1, 3, 8);
            INSERT INTO ratings VALUES (1, 5, 27.0, 7.0, 3, 43);
            INSERT INTO pair_ratings VALUES (1, 5, 7, 26.0, 6.0, 3, 43);
        """)
    finally:
        conn.close()
    store = await Store.open(path, clock=clock)
    try:
        assert [(s.guild_id, s.number, s.started_at, s.ended_at)
                for g in (1, 2) for s in await store.seasons(g)] == [
            (1, 1, 40.0, None), (2, 1, 70.0, None)]
        stats = await store.stats(1, 5, season=1, mode="teams")
        assert (stats.season, stats.rated_hands) == (1, 3)
        assert stats.rating == pytest.approx(27.0 - 21.0)
        pairs = await store.leaderboard(1, "rating", "partnerships", mode="teams")
        assert pairs.season == 1
        assert [(r.users, r.rated_hands) for r in pairs.rows] == [((5, 7), 3)]
        hand = await store.hand_record("M:1")
        assert hand is not None and (hand.players, hand.holders) == ((5, 6, 7, 8), ())
        (summary,) = await store.history(10, mode="teams")
        assert summary.season == 1
    finally:
        await store.close()
    assert versions(path) == ALL
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT DISTINCT season FROM matches").fetchall() == [(1,)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()
