"""Taking back one's last play (R12 `take_backs`), answered: shared by the panel's
``Take back`` button (the take-backs room) and ``/tractor tricks takeback`` (the Tricks
room's subgroup). The engine decides who may take back what (`engine.actions.TakeBack`);
the service applies it (`TableService.take_back`, answering with the cards
returned), turns the `PlayTakenBack` event into a table line and refreshes the panels."""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import UserFacingError
from bot.i18n import t
from bot.present.text import cards_text
from bot.services.tables import TableService
from bot.ui.publish import Publisher
from bot.ui.replies import locale_of, send
from bot.ui.selection import Selections

__all__ = ["TakeBacks"]


class TakeBacks:
    """Take-backs for the rooms that offer them."""

    def __init__(self, service: TableService, selections: Selections,
                 publisher: Publisher) -> None:
        self.service = service
        self.selections = selections
        self.publisher = publisher

    async def typed(self, interaction: discord.Interaction[Any], table_id: int,
                    seat: int | None) -> None:
        """``/tractor tricks takeback``: take back your last play at this table (`seat`:
        the user's)."""
        cards = await self.service.take_back(table_id, interaction.user.id)
        if seat is not None:
            self.selections.clear(table_id, seat)
            self.publisher.refresh_ephemeral(table_id, seat)
        await send(interaction, t("takeback.done", locale_of(interaction),
                                  cards=cards_text(cards)))

    async def clicked(self, interaction: discord.Interaction[Any], table_id: int,
                      seat: int | None, step: int) -> None:
        """The panel's ``Take back`` (of the panel's `step`); an ephemeral panel is
        refreshed (a DM panel is, by the publish). Pressed after the next player acted: too
        late, said so (not "here is a fresh panel": the fresh one is above, issue 38)."""
        message = interaction.message
        try:
            await self.service.take_back(table_id, interaction.user.id, step=step)
        except UserFacingError as error:
            if error.key != "error.stale":
                raise
            if message is not None and message.flags.ephemeral and seat is not None:
                self.publisher.refresh_ephemeral(table_id, seat)
            raise UserFacingError("takeback.too_late") from None
        if message is not None and message.flags.ephemeral and seat is not None:
            self.publisher.refresh_ephemeral(table_id, seat)

