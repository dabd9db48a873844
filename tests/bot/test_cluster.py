"""Shard clusters (issue 29): the settings, the cluster name in log lines, shard leases with
fencing epochs checked inside the save's transaction, and a sharded bot in SimCord that
holds its shards' leases, restores only their tables and syncs its commands once."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from botkit import TEST_CONFIG, World, simulated

from bot import create_bot
from bot.__main__ import main
from bot.app import client
from bot.app.client import USERS_TTL
from bot.runtime.config import Config, ConfigError, shard_of
from bot.runtime.logging import line_format
from bot.services.ownership import ShardLeases, SoleOwner
from bot.storage import Store
from bot.storage.cluster import ClusterStore, StaleOwner

TOKEN = "A" * 24 + ".abcdef." + "B" * 27


def env(**values: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, **values}


# ---- settings ---------------------------------------------------------------------------


def test_no_shard_settings_is_one_unsharded_process() -> None:
    config = Config.from_env(env())
    assert (config.shard_count, config.shard_ids, config.cluster_name) == (None, None, "")
    assert not config.clustered and config.sync_commands and not config.sync_changed_only
    assert type(create_bot(":memory:", config=config)).__name__ == "TractorBot"


@pytest.mark.parametrize(("values", "ids"), [
    ({"SHARD_IDS": "0-3"}, (0, 1, 2, 3)),
    ({"SHARD_IDS": "0,2"}, (0, 2)),
    ({"SHARD_IDS": "4-5, 7"}, (4, 5, 7)),
    ({"CLUSTER_INDEX": "0", "CLUSTER_COUNT": "3"}, (0, 1)),
    ({"CLUSTER_INDEX": "2", "CLUSTER_COUNT": "3"}, (5, 6, 7)),
])
def test_shard_ids_from_a_range_a_list_or_a_cluster_index(values: dict[str, str],
                                                          ids: tuple[int, ...]) -> None:
    config = Config.from_env(env(SHARD_COUNT="8", DATABASE_URL="postgresql://db/tractor",
                                 **values))
    assert config.shard_ids == ids and config.clustered
    assert config.cluster_name == f"shards-{ids[0]}-{ids[-1]}"
    assert config.sync_changed_only  # auto: once per deploy for clusters


def test_all_shards_in_one_process_needs_no_database_server() -> None:
    config = Config.from_env(env(SHARD_COUNT="4", CLUSTER_NAME="eu-1",
                                 DISCORD_API_BASE="http://nirn:8080/api/v10/"))
    assert config.shard_ids is None and not config.clustered
    assert config.cluster_name == "eu-1" and config.api_base == "http://nirn:8080/api/v10"
    assert type(create_bot(":memory:", config=config)).__name__ == "ShardedTractorBot"


@pytest.mark.parametrize("values", [
    {"SHARD_IDS": "0-3"},
    {"SHARD_COUNT": "4", "SHARD_IDS": "2-9", "DATABASE_URL": "postgresql://x/y"},
    {"SHARD_COUNT": "4", "SHARD_IDS": "a"},
    {"SHARD_COUNT": "4", "SHARD_IDS": "0", "CLUSTER_INDEX": "1"},
    {"SHARD_COUNT": "4", "CLUSTER_INDEX": "4", "CLUSTER_COUNT": "4"},
    {"SHARD_COUNT": "0"},
    {"SYNC_COMMANDS": "sometimes"},
    {"DISCORD_API_BASE": "nirn:8080"},
    {"CLUSTER_NAME": "a b"},
])
def test_bad_shard_settings_are_refused(values: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        Config.from_env(env(**values))


def test_several_clusters_without_a_database_server_stop_the_start(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name, value in env(SHARD_COUNT="4", SHARD_IDS="0-1").items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["--env-file", "/nonexistent"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DATABASE_URL" in err


def test_the_cluster_name_is_in_every_log_line() -> None:
    record = logging.LogRecord("tractor", logging.INFO, "x", 1, "table=1 hi", None, None)
    assert "cluster=eu-1 tractor: table=1 hi" in logging.Formatter(
        line_format("eu-1")).format(record)
    assert "cluster" not in logging.Formatter(line_format("")).format(record)


# ---- leases and fencing -----------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def guild_on(shard: int, count: int) -> int:
    guild = (1 << 22) * (10 * count + shard)
    assert shard_of(guild, count) == shard
    return guild


async def test_a_take_over_raises_the_epoch_and_the_old_owner_writes_nothing(
        tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with await Store.open(path) as one, await Store.open(path) as two:
        fenced: list[str] = []
        a = ShardLeases(ClusterStore(one, clock=clock), owner="a", shard_count=2,
                        shard_ids=[0, 1], ttl=15, clock=clock, on_fenced=fenced.append)
        b = ShardLeases(ClusterStore(two, clock=clock), owner="b", shard_count=2,
                        shard_ids=[1], ttl=15, clock=clock)
        one.fence, two.fence = a.fence, b.fence
        assert await a.acquire(wait=0) and a.epochs == {0: 1, 1: 1}
        table = await one.create_table(guild_on(1, 2), 5, 7, {"v": 1})
        assert not await b.acquire(wait=0)  # held, not run out
        with pytest.raises(StaleOwner):  # b holds nothing yet
            await two.save_table(table.id, 1, {"v": "b"})

        clock.now += 16  # a is paused past its lease
        assert await b.acquire(wait=0) and b.epochs == {1: 2}
        with pytest.raises(StaleOwner):  # a wakes and saves: refused, nothing written
            await one.save_table(table.id, 1, {"v": "a"})
        stored = await two.load_table(table.id)
        assert stored is not None and stored.version == 1 and stored.doc == {"v": 1}
        assert (await two.save_table(table.id, 1, {"v": "b"})).version == 2
        with pytest.raises(StaleOwner):  # nor the server's records (one writer: its owner)
            await one.start_season(guild_on(1, 2))
        with pytest.raises(StaleOwner):
            await one.set_guild_settings(guild_on(1, 2), language="zh_Hans")
        assert (await two.current_season(guild_on(1, 2))).number == 1
        assert (await two.guild_settings(guild_on(1, 2))).language == "en"

        assert not await a.renew_once() and a.fenced and fenced  # a fences itself
        assert not a.owns(guild_on(0, 2)) and a.epochs == {}
        log = await ClusterStore(two).lease_log()
        assert [(s, o, e) for s, o, e, event, _ in log if event == "acquire"] == [
            (0, "a", 1), (1, "a", 1), (1, "b", 2)]


async def test_a_released_lease_is_taken_at_once(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with await Store.open(path) as one, await Store.open(path) as two:
        a = ShardLeases(ClusterStore(one, clock=clock), owner="a", shard_count=1,
                        shard_ids=[0], ttl=15, clock=clock)
        b = ShardLeases(ClusterStore(two, clock=clock), owner="b", shard_count=1,
                        shard_ids=[0], ttl=15, clock=clock)
        assert await a.acquire(wait=0) and await a.renew_once()
        await a.release()
        assert await b.acquire(wait=0) and b.epochs == {0: 2}


async def test_gateway_logins_of_two_clusters_take_turns(tmp_path: Path) -> None:
    """One identify a bucket every 5 s for the whole bot: the second cluster's login waits
    for the first's turn to pass, counted on the shared database's clock."""
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with await Store.open(path) as one, await Store.open(path) as two:
        first, second = ClusterStore(one, clock=clock), ClusterStore(two, clock=clock)
        assert await first.identify_slot(0, 5.0) == 0.0
        assert await second.identify_slot(0, 5.0) == 5.0  # nothing taken
        clock.now += 3.0
        assert await second.identify_slot(0, 5.0) == 2.0
        clock.now += 2.0
        assert await second.identify_slot(0, 5.0) == 0.0
        assert await first.identify_slot(0, 5.0) == 5.0


def test_a_lone_process_owns_everything() -> None:
    assert SoleOwner().owns(guild_on(3, 4)) and not SoleOwner().fenced


# ---- a sharded bot in SimCord ---------------------------------------------------------


async def test_a_cluster_holds_its_shards_restores_their_tables_and_syncs_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "tractor.sqlite3"
    changes = {"shard_count": 2, "shard_ids": (0,), "cluster_name": "c0",
               "sync_changed_only": True}
    opened: list[dict[str, Any]] = []

    async def open_store(target: Any, **options: Any) -> Store:
        opened.append(options)
        return await Store.open(target, **options)

    monkeypatch.setattr(client, "open_store", open_store)
    bot = create_bot(database, config=TEST_CONFIG, **changes)
    async with simulated(bot) as sim:
        w = World(sim, database, {**changes})
        w.guild = sim.create_guild(name="Tractor club", shard_id=0)
        w.channel = w.guild.create_text_channel("tractor")
        for name in ("alice", "bob"):
            w.users.append(w.guild.add_member(sim.create_user(name)))
        assert isinstance(bot.ownership, ShardLeases) and bot.ownership.epochs == {0: 1}
        assert bot.ownership.owns(w.guild.id)
        # Given at construction, not wired after the fact: the store's fence is the leases'.
        (setup,) = [options for options in opened if options]  # prepare_database's: none
        assert setup["fence"] is bot.ownership.fence is bot.store.fence
        assert setup["users_ttl"] == USERS_TTL == bot.store.users_ttl
        await w.new_table()
        await w.users[1].click(w.table_message(), label="Join")
        other = ClusterStore(bot.store)
        assert await other.acquire(0, "someone-else", 15) is None  # held by the bot
        # A table of shard 1 (another cluster's) is not restored here.
        async with await Store.open(database) as elsewhere:  # the other cluster's
            foreign = await elsewhere.create_table(guild_on(1, 2), 99, 1, {"x": 1})
        with pytest.raises(StaleOwner):  # this cluster cannot write another shard's table
            await bot.store.save_table(foreign.id, 1, {"x": 2})

        caplog.set_level(logging.INFO, logger="tractor")
        caplog.clear()
        await w.restart(**changes)
        assert "unchanged since the last sync" in caplog.text
        assert "restored after restart" in caplog.text and f"table={foreign.id} " not in \
            caplog.text
        new = w.bot.ownership
        assert isinstance(new, ShardLeases) and new.epochs == {0: 2}  # released, taken
        await w.users[0].click(w.table_message(), label="Leave")  # old buttons still work
        assert (await w.doc()).seats[0] is None or (await w.doc()).seats[0].user_id != \
            w.users[0].id
        await w.bot.publisher.idle()
        await w.bot.close_store()


# ---- the inbox: a click received by one cluster, applied by the owner ----------------


async def test_a_forwarded_click_is_applied_once_by_the_owner(tmp_path: Path) -> None:
    import asyncio
    import contextlib

    from bot.services.inbox import TRY_AGAIN, Inbox

    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with await Store.open(path) as here, await Store.open(path) as there:
        owner = ShardLeases(ClusterStore(there, clock=clock), owner="b", shard_count=2,
                            shard_ids=[1], ttl=15, clock=clock)
        assert await owner.acquire(wait=0)
        receiving = Inbox(ClusterStore(here, clock=clock), poll=0.001)
        serving = Inbox(ClusterStore(there, clock=clock), poll=0.001, retry_after=5)
        applied: list[int] = []

        async def handler(item: Any) -> str:
            applied.append(item.interaction_id)
            return f"played {item.payload['card']}"

        server = asyncio.create_task(serving.serve("b", lambda: owner.epochs, handler))
        try:
            assert await receiving.forward(11, 1, 7, {"card": "AS"}) == "played AS"
            # Discord delivers it again: queued once, applied once, answered the same
            assert await receiving.forward(11, 1, 7, {"card": "AS"}) == "played AS"
            assert applied == [11]
        finally:
            server.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await server
        # A claim the cancelled loop had in flight finishes on the store's one write thread:
        # a write queued behind it means none is left (the test must not race it).
        await ClusterStore(there, clock=clock).done(11, "played AS")
        # The owner is down: the player is told to try again and the click is withdrawn
        # (never applied later: what the player was told stays true) ...
        assert await receiving.forward(12, 1, 7, {"card": "KS"}, wait=0.05) == TRY_AGAIN
        assert await serving.serve_once("b", owner.epochs, handler) == 0
        assert applied == [11]
        assert await receiving.forward(12, 1, 7, {"card": "KS"}, wait=0) == TRY_AGAIN
        # ... a shard nobody here holds is never claimed ...
        await receiving.store.put(13, 1, 7, {"card": "QS"})
        assert await serving.serve_once("b", {0: 1}, handler) == 0
        # ... and a click the owner claimed is its to answer: not withdrawn.
        assert await serving.serve_once("b", owner.epochs, handler) == 1
        assert not await ClusterStore(here).withdraw(13, TRY_AGAIN)
        assert applied == [11, 13]
        assert await ClusterStore(here).outcome(13) == "played QS"


async def test_a_click_claimed_by_an_owner_that_died_is_claimed_again(tmp_path: Path) -> None:
    from bot.services.inbox import Inbox

    clock = Clock()
    async with await Store.open(tmp_path / "t.sqlite3") as store:
        cluster = ClusterStore(store, clock=clock)
        assert await cluster.acquire(0, "a", 15) == 1
        await cluster.put(5, 0, 1, {})
        assert [i.interaction_id for i in await cluster.claim("a", {0: 1})] == [5]
        assert await cluster.claim("a", {0: 1}) == []  # claimed, not done
        clock.now += 16  # "a" died; "b" takes the shard over
        assert await cluster.acquire(0, "b", 15) == 2
        assert await cluster.claim("a", {0: 1}) == []  # the old owner claims nothing
        inbox = Inbox(cluster, retry_after=10)
        seen: list[int] = []

        async def handler(item: Any) -> str:
            seen.append(item.interaction_id)
            return "ok"

        assert await inbox.serve_once("b", {0: 2}, handler) == 1 and seen == [5]


async def test_a_cluster_whose_shard_is_taken_over_refuses_and_stops(tmp_path: Path) -> None:
    """Another process takes the shard over (the bot was paused past its lease): the bot's
    next save is refused (the player is told to try again, nothing written), its next
    renewal fences it: timers stop and it closes with status 3."""
    database = tmp_path / "tractor.sqlite3"
    changes = {"shard_count": 2, "shard_ids": (0,), "cluster_name": "c0"}
    bot = create_bot(database, config=TEST_CONFIG, **changes)
    async with simulated(bot) as sim:
        w = World(sim, database, {**changes})
        w.guild = sim.create_guild(name="Tractor club", shard_id=0)
        w.channel = w.guild.create_text_channel("tractor")
        for name in ("alice", "bob"):
            w.users.append(w.guild.add_member(sim.create_user(name)))
        await w.new_table()
        version = await w.version()
        async with await Store.open(database) as elsewhere:  # the lease ran out; taken
            other = ClusterStore(elsewhere)
            await other._write(lambda db: db.execute(
                "UPDATE shard_leases SET expires_at = 0 WHERE shard = 0"))
            assert await other.acquire(0, "c0-new", 15) == 2
        result = await w.users[1].click(w.table_message(), label="Join")
        texts = [f.content or "" for f in result.followups]
        if result.response is not None:
            texts.append(result.response.content or "")
        assert any("try again" in text.lower() for text in texts), texts
        assert await w.version() == version  # nothing written
        assert isinstance(bot.ownership, ShardLeases)
        await sim.advance_time(TEST_CONFIG.lease_seconds)  # the next renewal: fenced
        await sim.settle()
        assert bot.ownership.fenced and bot.exit_status == 3
        assert bot.service.autopilot._closed


async def test_a_cluster_sees_another_clusters_change_of_user_settings(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "t.sqlite3"
    async with await Store.open(path) as store:
        store.users_ttl = 5.0
        assert (await store.user_settings(42)).four_colour is True
        subprocess.run([sys.executable, "-c", (
            "import asyncio\nfrom bot.storage import Store\n"
            "async def main():\n"
            f"    async with await Store.open({str(path)!r}) as s:\n"
            "        await s.set_user_settings(42, four_colour=False)\n"
            "asyncio.run(main())\n")], check=True, timeout=60)
        assert store.known_user_settings(42) is not None  # still fresh here
        store._users.read_at[42] -= 5.1  # 5 s later
        assert store.known_user_settings(42) is None
        assert (await store.user_settings(42)).four_colour is False
