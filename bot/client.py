"""The bot object: `create_bot(database)` and its ``setup_hook``."""

from __future__ import annotations

import os
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import load_features, make_tractor_group
from bot.config import Config
from bot.logging import log

__all__ = ["TractorBot", "create_bot"]


class TractorBot(commands.Bot):
    """The Tractor bot. Unstarted until ``start``/SimCord; ``setup_hook`` does the wiring."""

    def __init__(self, config: Config) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.config = config
        self.tractor_group: app_commands.Group = make_tractor_group()
        self.features: list[str] = []

    async def setup_hook(self) -> None:
        from bot.i18n import TractorTranslator

        await self.tree.set_translator(TractorTranslator())
        self.tree.add_command(self.tractor_group)
        self.features = await load_features(self)
        if self.config.sync_commands:
            await self._sync()
        log.info("ready to sync: features %s", ", ".join(self.features))

    async def _sync(self) -> None:
        guild_id = self.config.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


def create_bot(
    database: str | os.PathLike[str], *, config: Config | None = None, **changes: Any
) -> TractorBot:
    """An unstarted bot on the SQLite file `database` (settings from the environment
    unless `config` is given; keyword `changes` override single settings)."""
    base = config if config is not None else Config.from_env(require_token=False)
    base = base.with_changes(database_path=os.fspath(database), **changes)
    return TractorBot(base)
