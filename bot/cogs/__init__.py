"""Slash commands: one ``/tractor`` group shared by every feature module.

How to add commands (the pattern every module here follows)
-----------------------------------------------------------
1. Write ``bot/cogs/<feature>.py`` with a cog that subclasses `TractorCog`. Its app
   commands are ordinary ``@app_commands.command`` methods; they become subcommands of
   ``/tractor`` (``/tractor <name>``), never top-level commands::

       from discord import app_commands
       from bot.cogs import TractorCog, add_tractor_cog
       from bot.i18n import lstr, t

       class Records(TractorCog):
           @app_commands.command(name="stats", description=lstr("cmd.stats.desc"))
           @app_commands.describe(player=lstr("cmd.stats.player.desc"))
           async def stats(self, interaction: discord.Interaction,
                           player: discord.User | None = None) -> None:
               \"\"\"Show a player's record.\"\"\"   # the docstring is the help text
               store = self.bot.store            # the opened bot.storage.Store
               await interaction.response.send_message(t("...", interaction.locale),
                                                       ephemeral=True)

       async def setup(bot: TractorBot) -> None:
           await add_tractor_cog(bot, Records(bot))

2. That's all: `load_features` imports every module of this package that defines
   ``setup`` (alphabetical order) from the bot's ``setup_hook``, after the group was added
   to the tree and before the tree is synced. Nothing else needs editing.
3. Every description is a catalog key through ``lstr`` (bot/i18n); every option has a
   description (``@app_commands.describe``); choices use ``lstr`` names too.
4. Errors: raise ``engine.TractorError`` (its reason is shown ephemerally) or
   `bot.errors.UserFacingError` (``key`` + format kwargs from the catalog) and run the
   body through ``await self.bot.handlers.guard(interaction, coro)`` (or
   ``handlers.here(interaction, lambda table_id: ...)`` for "this channel's table"):
   refusals are answered ephemerally and are not bugs; anything else is answered
   politely, re-raised and logged with the table id by the tree's ``on_error``
   (bot/client.py). The service is ``self.bot.service`` (bot/service.py), the store
   ``self.bot.store``.
5. Defer (``interaction.response.defer``) before anything that may take over ~2 s;
   run blocking work (rendering) with ``asyncio.to_thread``.

Names used by the modules here: ``tables`` (/tractor new, join, leave, addbot, start, end,
table, rules, help), ``play`` (/tractor hand, play, declare, pass, bury, back),
``records`` (stats, leaderboard, history, replay, settings — another module, same
pattern). A group holds at most 25 subcommands.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from bot.i18n import lstr

if TYPE_CHECKING:
    from bot.client import TractorBot

__all__ = ["TractorCog", "add_tractor_cog", "load_features", "make_tractor_group"]

GROUP_NAME = "tractor"


def make_tractor_group() -> app_commands.Group:
    """A fresh ``/tractor`` group (one per bot instance; a restarted bot builds its own)."""
    return app_commands.Group(
        name=GROUP_NAME, description=lstr("cmd.tractor.desc"), guild_only=True
    )


class TractorCog(commands.Cog):
    """Base of the feature cogs: keeps the bot, and its app commands go under ``/tractor``."""

    def __init__(self, bot: TractorBot) -> None:
        self.bot = bot


async def add_tractor_cog(bot: TractorBot, cog: TractorCog) -> None:
    """Add `cog` with its app commands as subcommands of ``bot.tractor_group``."""
    group = bot.tractor_group
    commands_: list[Any] = list(cog.__cog_app_commands__)
    for command in commands_:
        group.add_command(command)
    # The cog must not add them again as top-level commands.
    cog.__cog_app_commands__ = []
    await bot.add_cog(cog)


async def load_features(bot: TractorBot) -> list[str]:
    """Import every module of this package that has ``setup(bot)`` and run it."""
    loaded: list[str] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        setup = getattr(module, "setup", None)
        if setup is None:
            continue
        await setup(bot)
        loaded.append(info.name)
    return loaded
