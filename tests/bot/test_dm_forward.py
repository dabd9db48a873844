"""DM clicks on a table another cluster drives (issue 29): Discord delivers every DM
interaction to shard 0, so the process holding shard 0 forwards a hand panel's click on a
table of shard 1 to shard 1's owner through the database inbox; the owner replays it.

Two real bots share one simulated Discord and one SQLite file: the *receiver* runs shard 0
(the DMs reach it), the *owner* runs shard 1 (the table's server). SimCord runs one bot per
world; `peer` attaches the second the way SimCord attaches its own (its REST calls reach
the same backend, its shard's gateway events reach it), through SimCord 3.2.1's internals.
Time is SimCord's: the owner's inbox poll and the receiver's wait fire only through
``advance_time``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import simcord
from botkit import TEST_CONFIG, World, find, reply_texts, simulated

from bot import create_bot
from bot.app.client import TractorBot
from bot.present.text import cards_text as cards_of
from bot.services.inbox import FORWARD_WAIT
from bot.storage import Store
from engine.game import Phase

SHARDS = 2
LEASE = 3600.0
"""Long leases: the database's clock is the real one, the bots' renewals run on SimCord's."""


def make(database: Path, shard: int) -> TractorBot:
    return create_bot(database, config=TEST_CONFIG, shard_count=SHARDS, shard_ids=(shard,),
                      cluster_name=f"c{shard}", lease_seconds=LEASE)


@asynccontextmanager
async def peer(sim: simcord.Env, bot: TractorBot) -> AsyncIterator[TractorBot]:
    """`bot` as a second process of the simulated bot: started (its leases taken, its
    tables restored), then stopped like a SIGTERM (its leases released)."""
    import asyncio

    from simcord import _dpy_internals
    from simcord.backend import serializers
    from simcord.gateway import ShardRouter
    from simcord.http.client import FakeHTTPClient

    shard_ids = tuple(bot.config.shard_ids or ())
    _dpy_internals.install_http(bot, FakeHTTPClient(sim.backend, asyncio.get_running_loop()))
    _dpy_internals.set_guild_ready_timeout(bot, 0.0)
    state = _dpy_internals.get_state(bot)
    state.shard_count, state.shard_ids = SHARDS, list(shard_ids)
    router = ShardRouter(sim.backend, state, bot.dispatch, SHARDS, shard_ids)

    def feed(event: str, payload: Any) -> None:
        with sim._bot_scope():
            router.feed(event, payload)

    sim.backend.subscribers.append(feed)
    try:
        with sim._bot_scope():
            await bot.login("simcord.fake.token")
            assert isinstance(bot, discord.AutoShardedClient)
            bot.shard_count = SHARDS
            _dpy_internals.install_shards(bot, router.shards)
            for shard in shard_ids:
                router.identify(shard)
            for guild in list(sim.backend.guilds.values()):
                router.feed("GUILD_CREATE",
                            serializers.guild_create_payload(sim.backend, guild))
        await sim.settle()
        yield bot
    finally:
        await sim.settle()
        sim.backend.subscribers.remove(feed)
        await bot.publisher.idle()
        await bot.close_store()


def custom_id(panel: Any, verb: str) -> str:
    component = find(panel, verb)
    assert component is not None, panel.content
    return str(component.custom_id)


async def inbox(database: Path) -> list[tuple[Any, ...]]:
    async with await Store.open(database) as store:
        return list(await store._db.write(lambda db: db.execute(
            "SELECT interaction_id, shard, claimed_by, outcome FROM cluster_inbox"
            " ORDER BY created_at").fetchall()))


async def passes(w: World, seat: int) -> int:
    """How many Pass actions of `seat` the hands' action log holds."""
    async with await Store.open(w.database) as store:
        rows = await store._db.write(lambda db: db.execute(
            "SELECT action FROM hand_actions").fetchall())
    return sum(1 for (text,) in rows
               if json.loads(text).get("type") == "pass" and json.loads(text)["seat"] == seat)


async def setting_up(sim: simcord.Env, database: Path) -> World:
    w = World(sim, database, {})
    w.guild = sim.create_guild(name="Tractor club", shard_id=1)
    w.channel = w.guild.create_text_channel("tractor")
    for name in ("alice", "bob"):
        w.users.append(w.guild.add_member(sim.create_user(name)))
    return w


async def test_a_dm_click_on_another_clusters_table_is_forwarded_and_applied_once(
        tmp_path: Path) -> None:
    database = tmp_path / "tractor.sqlite3"
    receiver = make(database, 0)
    async with simulated(receiver) as sim:
        w = await setting_up(sim, database)
        async with peer(sim, make(database, 1)) as owner:
            assert receiver.forwarding is not None and owner.forwarding is not None
            assert not receiver.ownership.owns(w.guild.id) and owner.ownership.owns(w.guild.id)
            await w.open_table(2)  # the server's commands and buttons reach the owner
            await w.start()
            match = await w.match()
            assert match.phase is Phase.DECLARING
            user = w.users[0]
            seat = (await w.doc()).seat_of(user.id)
            assert seat is not None and seat in match.public_view().awaiting

            # Refresh (a verb answered with the redrawn panel): deferred by the receiver,
            # queued for shard 1, redrawn by the owner through the interaction's token.
            panel = w.dm_panel(user)
            assert panel.edited_at is None
            result = await user.user.click(panel, custom_id=custom_id(panel, "refresh"))
            assert result.deferred  # acknowledged at once by the receiver
            assert [(row[1], row[3]) for row in await inbox(database)] == [(1, None)]
            await sim.advance_time(0.5)
            assert w.dm_panel(user).edited_at is not None and not result.followups

            # Pass: applied by the owner, once.
            version = await w.version()
            panel = w.dm_panel(user)
            result = await user.user.click(panel, custom_id=custom_id(panel, "pass"))
            assert await w.version() == version and await passes(w, seat) == 0
            await sim.advance_time(0.5)
            assert await passes(w, seat) == 1 and not result.followups
            assert "waiting for the others" in w.dm_panel(user).content  # redrawn
            rows = await inbox(database)
            assert [row[3] for row in rows] == ["done", "done"]
            assert all(str(row[2]).startswith("c1/") for row in rows)  # the owner's

            # Delivered again: nothing is queued twice ...
            async with await Store.open(database) as store:
                from bot.storage.cluster import ClusterStore

                cluster = ClusterStore(store)
                assert not await cluster.put(rows[1][0], 1, w.table_id, {})
                # ... and replayed by an owner that never marked it done (it died; its
                # successor remembers nothing): the table refuses it.
                await cluster._write(lambda db: db.execute(
                    "UPDATE cluster_inbox SET done_at = NULL, outcome = NULL,"
                    " claimed_at = NULL WHERE interaction_id = ?", (rows[1][0],)))
            owner.forwarding.inbox.applied.clear()
            version = await w.version()
            await sim.advance_time(0.5)
            assert await passes(w, seat) == 1 and await w.version() == version
            # The owner's refusal reached the player through the token (the step check, or
            # here the rules: this seat answered this declaration window already).
            assert len(result.followups) == 1
            assert "already answered" in (result.followups[0].content or "")


async def test_owner_down_the_player_is_told_to_try_again_and_nothing_is_applied(
        tmp_path: Path) -> None:
    database = tmp_path / "tractor.sqlite3"
    receiver = make(database, 0)
    async with simulated(receiver) as sim:
        w = await setting_up(sim, database)
        async with peer(sim, make(database, 1)):
            await w.open_table(2)
            await w.start()
        # The owner stopped (its leases released); nobody drives shard 1.
        user = w.users[0]
        seat = (await w.doc()).seat_of(user.id)
        assert seat is not None
        version = await w.version()
        assert receiver.forwarding is not None
        receiver.forwarding.inbox.poll = 0.25  # each simulated poll reads the database for real
        panel = w.dm_panel(user)
        result = await user.user.click(panel, custom_id=custom_id(panel, "pass"))
        await sim.advance_time(FORWARD_WAIT + 1)
        assert any("try again" in (f.content or "").lower() for f in result.followups)
        assert await w.version() == version and await passes(w, seat) == 0
        assert [row[3] for row in await inbox(database)] == ["try_again"]

        # The owner comes back: the withdrawn click is not applied (the player was told to
        # try again); the click made again is.
        async with peer(sim, make(database, 1)):
            await sim.advance_time(0.5)
            assert await passes(w, seat) == 0
            panel = w.dm_panel(user)
            result = await user.user.click(panel, custom_id=custom_id(panel, "pass"))
            await sim.advance_time(0.5)
            assert await passes(w, seat) == 1 and not result.followups


async def declarations(w: World, seat: int) -> int:
    """How many Declare actions of `seat` the hands' action log holds."""
    async with await Store.open(w.database) as store:
        rows = await store._db.write(lambda db: db.execute(
            "SELECT action FROM hand_actions").fetchall())
    return sum(1 for (text,) in rows
               if json.loads(text).get("type") == "declare" and json.loads(text)["seat"] == seat)


async def test_the_type_modal_opens_on_the_receiver_and_its_cards_are_applied_by_the_owner(
        tmp_path: Path) -> None:
    """A modal must be the click's first answer: the receiver opens ``Type…`` itself (no
    table needed); the submission is forwarded like a click, checked and applied by the
    owner (the seat, the step), answered through the submission's token."""
    database = tmp_path / "tractor.sqlite3"
    receiver = make(database, 0)
    async with simulated(receiver) as sim:
        w = await setting_up(sim, database)
        async with peer(sim, make(database, 1)) as owner:
            await w.open_table(2)
            await w.start()
            match = await w.match()
            user = w.users[0]
            seat = (await w.doc()).seat_of(user.id)
            assert seat is not None and match.phase is Phase.DECLARING
            legal = match.view_for(seat).legal_declarations
            assert legal  # the test's seeded deal: this seat can declare (Type… enabled)
            panel = w.dm_panel(user)
            shown = await user.user.click(panel, custom_id=custom_id(panel, "type"))
            assert shown.modal is not None  # the receiver's first answer, no inbox
            assert await inbox(database) == []

            # Cards the seat cannot declare: the owner refuses, through the token.
            refused = await user.user.submit_modal(shown, {"cards": "XX"})
            assert refused.deferred and [row[1] for row in await inbox(database)] == [1]
            await sim.advance_time(0.5)
            assert (await inbox(database))[0][3] == "done"
            assert "not a card" in " ".join(reply_texts(refused)), reply_texts(refused)
            assert await declarations(w, seat) == 0

            # A modified client submits the modal under another seat's id: its panel
            # carries no Type… of that seat, refused, nothing queued.
            other = (await w.doc()).seat_of(w.users[1].id)
            theirs = await user.user.click(w.dm_panel(user),
                                           custom_id=custom_id(w.dm_panel(user), "type"))
            assert theirs.modal is not None and other is not None
            theirs._interaction.modal["custom_id"] = theirs.modal["custom_id"].replace(
                f":typed:{seat}.", f":typed:{other}.")
            forged = await user.user.submit_modal(theirs, {"cards": "AS"})
            await sim.advance_time(0.5)
            assert "not valid" in " ".join(reply_texts(forged)), reply_texts(forged)
            assert len(await inbox(database)) == 1 and await declarations(w, seat) == 0

            cards = " ".join(str(card) for card in legal[0])
            shown = await user.user.click(w.dm_panel(user),
                                          custom_id=custom_id(w.dm_panel(user), "type"))
            applied = await user.user.submit_modal(shown, {"cards": cards})
            version = await w.version()
            assert await declarations(w, seat) == 0  # queued: the receiver applies nothing
            await sim.advance_time(0.5)
            assert await declarations(w, seat) == 1 and await w.version() > version
            assert reply_texts(applied) == [f"You declared {cards_of(legal[0])}."]
            assert [row[3] for row in await inbox(database)] == ["done", "done"]
            assert all(str(row[2]).startswith("c1/") for row in await inbox(database))
            assert owner.forwarding is not None and owner.forwarding.inbox.applied
