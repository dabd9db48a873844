"""The features ("rooms"): lobby, seats, play, the friend call, pace, records, settings,
admin, take-backs and tricks. Each keeps its slash commands, the
component verbs it handles (registered in the `ComponentRouter`) and its private helpers
together; this module holds what they share.

Adding a command: a ``@app_commands.command`` method on the feature's cog (it becomes
``/tractor <name>``; the docstring is the help text; descriptions are catalog keys through
``lstr``). Adding a verb: ``app.router.add(VerbSpec(...), handler, ack=...)`` in the
feature's ``__init__``. Errors: raise `UserFacingError` or `TractorError`; the one error
path (`bot.ui.replies.fail`, called by the command tree, the router and modals) answers.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import UserFacingError
from bot.core.table import TableDoc
from bot.i18n import lstr
from bot.runtime.config import Config
from bot.services.tables import TableService
from bot.storage import Storage
from bot.ui.access import Access
from bot.ui.components import ComponentRouter
from bot.ui.publish import Publisher
from bot.ui.replies import fail, reader_locale
from bot.ui.selection import Selections

__all__ = ["ALIAS_KEY", "FEATURES", "App", "Feature", "guarded", "load_features",
           "make_tractor_group"]

P = ParamSpec("P")
F = TypeVar("F", bound="Feature")

GROUP_NAME = "tractor"
FEATURES = ("lobby", "seats", "play", "calling", "pace", "records", "settings", "admin",
            "takeback", "tricks")
"""The feature modules, in the order their commands are registered."""


def make_tractor_group() -> app_commands.Group:
    """A fresh ``/tractor`` group (one per bot instance; a restarted bot builds its own)."""
    return app_commands.Group(name=GROUP_NAME, description=lstr("cmd.tractor.desc"),
                              guild_only=True)


@dataclass(frozen=True, slots=True)
class App:
    """What the features work with (built by the composition root, bot/app/client.py)."""

    client: commands.Bot
    config: Config
    store: Storage
    service: TableService
    publisher: Publisher
    selections: Selections
    router: ComponentRouter
    access: Access
    group: app_commands.Group


class Feature(commands.Cog):
    """Base of the feature cogs: their app commands go under ``/tractor``.

    A feature may put its commands in a subgroup (``/tractor <subgroup> <name>``, so the
    group stays under Discord's 25 subcommands as features are added): `subgroup` names
    it, `grouped` the commands it holds. Names players already type (`aliases`) keep
    working as ``/tractor <name>`` until the room is needed; help lists the grouped names
    only."""

    subgroup: str | None = None
    grouped: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    def __init__(self, app: App) -> None:
        self.app = app

    async def ack(self, interaction: discord.Interaction[Any]) -> str:
        """Acknowledge a command at once (an ephemeral "thinking…"), before any database
        work; returns the reader's language."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        return await reader_locale(interaction, self.app.store)

    async def here(self, interaction: discord.Interaction[Any]) -> tuple[int, TableDoc]:
        """This channel's open table (`UserFacingError` if there is none)."""
        found = await self.app.service.table_in_channel(interaction.channel_id or 0)
        if found is None:
            raise UserFacingError("error.no_table_here")
        stored, doc = found
        return stored.id, doc


def guarded(fn: Callable[Concatenate[F, discord.Interaction[Any], P], Awaitable[None]]
            ) -> Callable[Concatenate[F, discord.Interaction[Any], P], Coroutine[Any, Any, None]]:
    """A command body whose errors take the one error path (answered once, here: a refusal
    is not a bug, so it never reaches the command tree's error handler)."""
    @functools.wraps(fn)
    async def run(self: F, interaction: discord.Interaction[Any], /, *args: P.args,
                  **kwargs: P.kwargs) -> None:
        try:
            await fn(self, interaction, *args, **kwargs)
        except Exception as error:
            await fail(interaction, error)
    return run


async def load_features(app: App) -> list[str]:
    """Import each feature module and run its ``setup(app)`` (adds the cog, its commands
    under ``/tractor`` and its verbs)."""
    for name in FEATURES:
        module = importlib.import_module(f"{__name__}.{name}")
        await module.setup(app)
    return list(FEATURES)


ALIAS_KEY = "tractor_alias"
"""``command.extras`` flag of an old name kept working (help leaves it out)."""


async def add_feature(app: App, cog: Feature) -> None:
    """Add `cog` with its app commands as subcommands of ``/tractor`` (those it groups in
    its subgroup, with their old names as aliases)."""
    subgroup: app_commands.Group | None = None
    if cog.subgroup is not None:
        subgroup = app_commands.Group(name=cog.subgroup,
                                      description=lstr(f"cmd.{cog.subgroup}.desc"))
        app.group.add_command(subgroup)
    for command in list(cog.__cog_app_commands__):
        if subgroup is not None and command.name in cog.grouped:
            assert isinstance(command, app_commands.Command)
            grouped = command._copy_with(parent=subgroup, binding=cog, bindings={cog: cog},
                                         set_on_binding=False)
            # Own dicts: discord.py's per-bot copies share the class-level ``extras``.
            grouped.extras = {k: v for k, v in command.extras.items() if k != ALIAS_KEY}
            subgroup.add_command(grouped)
            if command.name not in cog.aliases:
                continue
            command.extras = {**command.extras, ALIAS_KEY: True}
        app.group.add_command(command)
    cog.__cog_app_commands__ = []  # not again as top-level commands
    await app.client.add_cog(cog)
