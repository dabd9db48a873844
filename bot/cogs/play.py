"""Playing by typing (keyboard users, screen readers, tests): ``/tractor hand``, ``play``,
``declare``, ``pass``, ``bury``, ``back``. The ``cards`` options autocomplete the legal
choices for you right now; the first is the recommended default."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs import TractorCog, add_tractor_cog
from bot.i18n import lstr

if TYPE_CHECKING:
    from bot.client import TractorBot


class Play(TractorCog):
    """Commands to act in a running hand."""

    @app_commands.command(name="hand", description=lstr("cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Your hand panel, here and only for you (works with DMs closed)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.show_hand(
            interaction, table_id))

    @app_commands.command(name="play", description=lstr("cmd.play.desc"))
    @app_commands.describe(cards=lstr("cmd.play.cards.desc"))
    async def play(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Lead or follow with cards written like AS AS or 10H."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.typed(
            interaction, table_id, "play", cards))

    @play.autocomplete("cards")
    async def play_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        return await self.bot.handlers.choices(interaction, "play", current)

    @app_commands.command(name="declare", description=lstr("cmd.declare.desc"))
    @app_commands.describe(cards=lstr("cmd.declare.cards.desc"))
    async def declare(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Declare trump while the cards are dealt: one or two level cards, or a joker pair."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.typed(
            interaction, table_id, "declare", cards))

    @declare.autocomplete("cards")
    async def declare_cards(self, interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[str]]:
        return await self.bot.handlers.choices(interaction, "declare", current)

    @app_commands.command(name="pass", description=lstr("cmd.pass.desc"))
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        """Do not declare in this declaration window."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.pass_(
            interaction, table_id))

    @app_commands.command(name="bury", description=lstr("cmd.bury.desc"))
    @app_commands.describe(cards=lstr("cmd.bury.cards.desc"))
    async def bury(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Bury 8 of your 33 cards as the new kitty (the starter only)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.typed(
            interaction, table_id, "bury", cards))

    @bury.autocomplete("cards")
    async def bury_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        return await self.bot.handlers.choices(interaction, "bury", current)

    @app_commands.command(name="back", description=lstr("cmd.back.desc"))
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        """Take your seat back from the computer (after two missed turns)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.back(
            interaction, table_id))


async def setup(bot: TractorBot) -> None:
    await add_tractor_cog(bot, Play(bot))
