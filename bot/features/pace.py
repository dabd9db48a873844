"""Pace: the Ready check before a deal (the summary's and the table message's **Ready**
button). The service decides (`TableService.ready`); this room only answers the click."""

from __future__ import annotations

from typing import Any

import discord

from bot.features import App, Feature, add_feature
from bot.i18n import t
from bot.present.text import mention
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import locale_of, send


class PaceFeature(Feature):
    """The Ready button."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        app.router.add(VerbSpec("ready", "table"), self._ready, ack="reply")

    async def _ready(self, interaction: discord.Interaction[Any], cid: ComponentId,
                     values: list[str]) -> None:
        locale = locale_of(interaction)
        state = await self.app.service.ready(cid.table, interaction.user.id)
        if state.dealt:
            await send(interaction, t("ready.dealt", locale))
            return
        doc = state.doc
        assert doc is not None
        players = ", ".join(mention(doc, seat, locale) for seat in state.waiting)
        await send(interaction, t("ready.done", locale, players=players or "—"))


async def setup(app: App) -> None:
    await add_feature(app, PaceFeature(app))
