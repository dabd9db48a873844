"""Take-backs (R12 `take_backs`): the panel's ``Take back`` button, and `take_back` for
``/tractor tricks takeback`` (in the Tricks room's subgroup).

The engine decides who may take back what (`PublicView.take_back_seat`, `TakeBack`); a
refusal is its translated ruling. The service turns the `PlayTakenBack` event into a table
line, re-arms the turn timer and refreshes the panels.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.text import cards_text
from bot.features import App, Feature, add_feature
from bot.i18n import t
from bot.services.tables import Tx
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import locale_of, send
from engine.actions import TakeBack
from engine.events import PlayTakenBack


async def take_back(feature: Feature, interaction: discord.Interaction[Any]) -> None:
    """``/tractor tricks takeback``: take back your last play at this channel's table."""
    table_id, _ = await feature.here(interaction)
    tx = await feature.app.service.act(table_id, interaction.user.id, TakeBack)
    seat = tx.doc.seat_of(interaction.user.id)
    if seat is not None:
        feature.app.selections.clear(table_id, seat)
        feature.app.publisher.refresh_ephemeral(table_id, seat)
    await send(interaction, t("takeback.done", locale_of(interaction), cards=taken_back(tx)))


def taken_back(tx: Tx) -> str:
    """The cards a take-back returned, as text."""
    events = [e for e in tx.events if isinstance(e, PlayTakenBack)]
    return cards_text(events[0].cards) if events else ""


class TakeBacks(Feature, name="TakeBacks"):
    """Taking back one's last play."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        app.router.add(VerbSpec("takeback", "panel", seat="required"), self._button)

    async def _button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        await self.app.service.act(cid.table, interaction.user.id, TakeBack, step=cid.step)
        message = interaction.message
        if message is not None and message.flags.ephemeral and cid.seat is not None:
            self.app.publisher.refresh_ephemeral(cid.table, cid.seat)


async def setup(app: App) -> None:
    await add_feature(app, TakeBacks(app))
