"""Tables: open, join, leave, fill with computer players, start (``/tractor new`` …)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs import TractorCog, add_tractor_cog
from bot.i18n import lstr, t

if TYPE_CHECKING:
    from bot.client import TractorBot


class Tables(TractorCog):
    """Table lifecycle commands."""

    @app_commands.command(name="rules", description=lstr("cmd.rules.desc"))
    async def rules(self, interaction: discord.Interaction) -> None:
        """How to play Tractor."""
        await interaction.response.send_message(
            t("rules.summary", interaction.locale), ephemeral=True
        )


async def setup(bot: TractorBot) -> None:
    await add_tractor_cog(bot, Tables(bot))
