"""The composition root: `create_bot(database)` and its ``setup_hook`` (nothing in bot/
imports this module but the package's lazy ``bot.create_bot``).

``setup_hook`` opens the database, builds every part once with what it needs (the worker
pool, repository, publisher and its pictures, autopilot, service, router, features — no wiring after
the fact), installs the translator,
adds the ``/tractor`` group with the features' commands, registers the one dynamic item,
for a cluster takes its shards' leases and serves the DM clicks other clusters forward to
it (bot/ui/forward.py), restores the open tables (timers re-armed, computer seats resumed,
table messages refreshed with a "restored after restart" line), syncs the commands (to
``DEV_GUILD_ID`` when set, else globally) and sets the garbage collector up for a long-lived
bot (`bot.runtime.memory.configure`, the one place that does).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.rest import install_budget
from bot.features import App, load_features, make_tractor_group
from bot.runtime import memory
from bot.runtime.budget import RestBudget
from bot.runtime.collector import PauseGuard
from bot.runtime.config import Config
from bot.runtime.logging import log
from bot.runtime.offload import Workers
from bot.services.autopilot import Autopilot
from bot.services.inbox import Inbox
from bot.services.ownership import Ownership, ShardLeases, SoleOwner, owner_id
from bot.services.pictures import Pictures
from bot.services.repository import TableRepository
from bot.services.tables import TableService
from bot.storage import Store, open_store
from bot.storage.cluster import ClusterStore, Fence
from bot.ui.access import Access
from bot.ui.components import ComponentRouter
from bot.ui.forward import Forwarding
from bot.ui.publish import Publisher
from bot.ui.replies import fail, reader_locale
from bot.ui.selection import Selections

__all__ = ["EXIT_FENCED", "ShardedTractorBot", "TractorBot", "create_bot", "prepare_database"]

USERS_TTL = 5.0
"""Seconds a cluster keeps a user's settings in memory (another cluster may change them)."""
EXIT_FENCED = 3
"""The process lost its shard leases (paused past them, or taken over) and stopped."""
IDENTIFY_SPACING = 5.0
"""Seconds between two gateway logins of the whole bot (Discord's identify limit)."""


def discord_clock() -> float:
    """Epoch seconds from discord.py's clock (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


class TractorTree(app_commands.CommandTree[Any]):
    """Command errors take the one error path (`bot.ui.replies.fail`)."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        await fail(interaction, error)


class TractorBot(commands.Bot):
    """The Tractor bot. Unstarted until ``start``/SimCord; ``setup_hook`` builds it."""

    store: Store
    service: TableService
    publisher: Publisher
    cluster: ClusterStore
    """The shared database's cluster records (leases, inbox, identify slots, metadata)."""
    budget: RestBudget
    workers: Workers
    app: App

    def __init__(self, config: Config) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {}
        if isinstance(self, commands.AutoShardedBot):
            shards = {"shard_count": config.shard_count, "shard_ids": (
                None if config.shard_ids is None else list(config.shard_ids))}
        if config.api_base is not None:  # a shared REST proxy (nirn-proxy): one rate limit
            discord.http.Route.BASE = config.api_base
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=TractorTree,
            # No message cache: the bot reads only the message a click came with (in the
            # interaction) and never looks one up, and without message intents nothing
            # would fill it but lookups would still walk it.
            max_messages=None,
        )
        self.config = config
        self.tractor_group: app_commands.Group = make_tractor_group()
        self.features: list[str] = []
        self._store_open = False
        self.pause_guard: PauseGuard | None = None
        self.ownership: Ownership = SoleOwner()
        self.forwarding: Forwarding | None = None
        """A cluster's DM clicks on other clusters' tables, and theirs on its own."""
        self.exit_status = 0
        """Non-zero when the bot stopped itself (`EXIT_FENCED`)."""

    async def setup_hook(self) -> None:
        from bot.i18n import TractorTranslator

        # Migrate on a private event loop first: a fresh file is created and migrated
        # before the bot's loop touches it (cheap when it is already up to date).
        await asyncio.to_thread(prepare_database, self.config.database_path)
        self.workers = workers = Workers(self.config.workers)
        fence = self._fence()
        self.store = store = await open_store(
            self.config.database_path, fence=fence,  # other clusters change users' settings:
            users_ttl=None if fence is None else USERS_TTL)  # kept USERS_TTL seconds at most
        self._store_open = True
        self.cluster = ClusterStore(store)
        repository = TableRepository(store)
        selections = Selections()
        self.budget = RestBudget(self.config.process_rest_budget)
        install_budget(self.http, self.budget)  # every counted REST call waits for it
        self.publisher = Publisher(self, repository, selections, self.config,
                                   Pictures(workers), self.budget)
        autopilot = Autopilot(store, self.config, clock=discord_clock, workers=workers)
        self.service = TableService(repository, self.config, clock=discord_clock,
                                    publish=self.publisher.submit, autopilot=autopilot)
        access = Access(self.service, seen=self.publisher.note_click)
        leases = self._leases(fence)
        self.forwarding = None if leases is None else Forwarding(
            self, store, Inbox(self.cluster), leases)
        router = ComponentRouter(lambda interaction: reader_locale(interaction, store),
                                 access.owner, forward=self.forwarding)
        self.app = App(client=self, config=self.config, store=store, service=self.service,
                       publisher=self.publisher, selections=selections, router=router,
                       access=access, group=self.tractor_group)
        try:
            await self.tree.set_translator(TractorTranslator())
            self.tree.add_command(self.tractor_group)
            self.features = await load_features(self.app)
            router.install(self)
            # the channels' tokens that carry the table messages for free (bot/ui/carry.py)
            self.add_listener(self.publisher.carriers.note, "on_interaction")
            owns = await self._take_shards(leases)
            restored = await self.service.restore(owns)
            if self.forwarding is not None and leases is not None:
                # DM clicks other clusters received for this one's tables
                self.forwarding.serve(leases.owner, lambda: leases.epochs, router.replay)
            if self.config.sync_commands:
                await self._sync()
        except BaseException:
            await self.close_store()
            raise
        self.pause_guard = memory.configure(asyncio.get_running_loop())
        log.info("setup done: features %s; %d open table(s) restored",
                 ", ".join(self.features), len(restored))

    def _fence(self) -> Fence | None:
        """A cluster's fence (the leases it will hold, which every save is checked against),
        given to the store and the leases; None for a lone process (it owns every table)."""
        config = self.config
        if not config.clustered or config.shard_count is None or config.shard_ids is None:
            return None
        return Fence(owner_id(config.cluster_name), config.shard_count)

    def _leases(self, fence: Fence | None) -> ShardLeases | None:
        """A cluster's (some of the bot's shards) leases on `fence`, not taken yet."""
        config = self.config
        if fence is None or config.shard_ids is None:
            return None
        return ShardLeases(self.cluster, owner=fence.owner, shard_count=fence.shard_count,
                           shard_ids=config.shard_ids, ttl=config.lease_seconds,
                           on_fenced=self._fenced, on_regained=self._regained, fence=fence)

    async def _take_shards(self, leases: ShardLeases | None) -> Any:
        """A cluster: take its shards' leases (waiting for a former owner's to run out),
        fence every save with them, renew them; returns the test of the servers whose
        tables to restore (None: a lone process restores all)."""
        if leases is None:
            return None
        await leases.acquire()
        leases.start()
        self.ownership = leases
        return leases.owns

    async def before_identify_hook(self, shard_id: int | None, /, *,
                                   initial: bool = False) -> None:
        """A cluster's gateway logins take turns with every other cluster's: one a bucket
        every `IDENTIFY_SPACING` seconds for the whole bot, counted in the shared database
        (`ClusterStore.identify_slot`; one bucket: the limit of a bot without large-bot
        sharding). A lone process waits as discord.py does."""
        if not self.config.clustered:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        while (wait := await self.cluster.identify_slot(0, IDENTIFY_SPACING)) > 0:
            await asyncio.sleep(wait)

    async def _fenced(self, reason: str) -> None:
        """The leases are lost: stop timers and computer seats at once (every save is
        refused already, players are told to try again), then stop with `EXIT_FENCED`."""
        self.exit_status = EXIT_FENCED
        await self.service.close()
        asyncio.get_running_loop().create_task(self.close())

    async def _regained(self) -> None:
        """The shards are held again after the database was out of reach past the lease
        (no other cluster took them): re-arm their tables as after a start."""
        if isinstance(self.ownership, ShardLeases):
            await self.service.restore(self.ownership.owns)

    def command_hash(self) -> str:
        """A digest of the command tree as Discord receives it (names, options, locales
        not included: they come from the same code)."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        text = json.dumps(payload, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def _sync(self) -> None:
        guild_id = self.config.dev_guild_id
        key = f"commands:{guild_id or 'global'}"
        digest = self.command_hash()
        cluster = self.cluster
        if self.config.sync_changed_only and await cluster.meta(key) == digest:
            log.info("slash commands unchanged since the last sync: not synced")
            return
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await cluster.set_meta(key, digest)

    async def close_store(self) -> None:
        """Stop timers, finish the writes in progress, release the shard leases (the next
        cluster takes them at once) and close the database (idempotent)."""
        if self.pause_guard is not None:
            self.pause_guard.uninstall()
            self.pause_guard = None
        if self._store_open:
            self._store_open = False
            await self.service.close()
            if self.forwarding is not None:
                await self.forwarding.stop()
            try:  # message ids still waiting for their table's next save
                await self.service.repository.flush_meta()
                await self._wait_writes()
                if isinstance(self.ownership, ShardLeases):
                    await self.ownership.release()
            finally:
                await self.store.close()
            self.workers.shutdown()

    async def _wait_writes(self) -> None:
        """Wait for the table transactions under way (each holds its table's lock)."""
        for lock in list(self.service.repository._locks.values()):
            async with lock:
                pass

    async def close(self) -> None:
        try:
            await self.close_store()
        finally:
            await super().close()


class ShardedTractorBot(TractorBot, commands.AutoShardedBot):
    """The bot as one cluster of a sharded bot (`SHARD_COUNT`, `SHARD_IDS`)."""


def prepare_database(path: str) -> None:
    """Create or migrate the database at `path` and check it, on a private event loop
    (raises `bot.storage.StorageError` for a corrupt or too-new file, `OSError` when it
    cannot be opened). ``python -m bot`` calls it before connecting to Discord."""
    async def run() -> None:
        store = await open_store(path)
        await store.close()

    asyncio.run(run())


def create_bot(
    database: str | os.PathLike[str], *, config: Config | None = None, **changes: Any
) -> TractorBot:
    """An unstarted bot on the SQLite file `database` (settings from the environment
    unless `config` is given; keyword `changes` override single settings, e.g.
    ``create_bot(path, action_delay=0, edit_interval=0)`` in tests)."""
    base = config if config is not None else Config.from_env(require_token=False)
    base = base.with_changes(database_path=os.fspath(database), **changes)
    if base.shard_count is not None:
        return ShardedTractorBot(base)
    return TractorBot(base)
