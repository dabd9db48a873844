"""Take-backs (R12 `take_backs`): the panel's ``Take back`` button, and `take_back` for
``/tractor tricks takeback`` (in the Tricks room's subgroup).

The engine decides who may take back what (`PublicView.take_back_seat`, `TakeBack`); a
refusal is its translated ruling. The service applies it (`TableService.take_back`, which
answers with the cards returned), turns the `PlayTakenBack` event into a table line,
re-arms the turn timer and refreshes the panels; this room only answers the click.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.text import cards_text
from bot.features import App, Feature, add_feature
from bot.i18n import t
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import locale_of, send


async def take_back(feature: Feature, interaction: discord.Interaction[Any]) -> None:
    """``/tractor tricks takeback``: take back your last play at this channel's table."""
    table_id, doc = await feature.here(interaction)
    cards = await feature.app.service.take_back(table_id, interaction.user.id)
    seat = doc.seat_of(interaction.user.id)
    if seat is not None:
        feature.app.selections.clear(table_id, seat)
        feature.app.publisher.refresh_ephemeral(table_id, seat)
    await send(interaction, t("takeback.done", locale_of(interaction), cards=cards_text(cards)))


class TakeBacks(Feature, name="TakeBacks"):
    """Taking back one's last play."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        app.router.add(VerbSpec("takeback", "panel", seat="required"), self._button)

    async def _button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        await self.app.service.take_back(cid.table, interaction.user.id, step=cid.step)
        message = interaction.message
        if message is not None and message.flags.ephemeral and cid.seat is not None:
            self.app.publisher.refresh_ephemeral(cid.table, cid.seat)


async def setup(app: App) -> None:
    await add_feature(app, TakeBacks(app))
