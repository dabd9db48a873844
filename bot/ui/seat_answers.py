"""Taking a seat and seating a computer, answered: shared by the lobby (``/tractor join``,
``addbot`` and their buttons) and the seats room (``/tractor seat take|addbot``). The
transactions are `bot.services.seating.Seating`'s."""

from __future__ import annotations

from typing import Any

import discord

from bot.core.table import Seat, TableDoc
from bot.i18n import t
from bot.services.seating import Seating
from bot.services.tables import TableService
from bot.ui.access import manages_channels
from bot.ui.replies import locale_of, send

__all__ = ["SeatAnswers"]


class SeatAnswers:
    """A person takes a seat (welcomed in a DM); a computer is seated."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.seating = Seating(service)

    async def join(self, interaction: discord.Interaction[Any], table_id: int,
                   seat: int | None) -> None:
        """``/tractor join``, ``/tractor seat take`` and the Join button."""
        locale = locale_of(interaction)
        user = interaction.user
        name = getattr(user, "display_name", user.name)
        index, now = await self.seating.join(table_id, user.id, name, locale, seat)
        await send(interaction, t("join.done" if now else "join.next_hand", locale,
                                  number=index + 1))
        await self._welcome_dm(interaction, table_id, index, locale)

    async def _welcome_dm(self, interaction: discord.Interaction[Any], table_id: int,
                          seat: int, locale: str) -> None:
        """DM the player now, so closed DMs are found (and explained) while they are here."""
        user = interaction.user
        where = getattr(interaction.channel, "mention", "#?")
        try:
            dm = await user.create_dm()
            await dm.send(t("join.welcome_dm", locale, channel=where),
                          allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            await send(interaction, t("error.dm_closed", locale))

            def closed(doc: TableDoc) -> None:
                entry = _person(doc, seat, user.id)
                if entry is not None:
                    entry.dm_closed = True
                    entry.dm_notice_sent = True
            await self.service.update_meta(table_id, closed)
        except discord.HTTPException:
            pass
        else:
            def opened(doc: TableDoc) -> None:
                entry = _person(doc, seat, user.id)
                if entry is not None:
                    entry.dm_channel = dm.id
            await self.service.update_meta(table_id, opened)

    async def add_bot(self, interaction: discord.Interaction[Any], table_id: int,
                      seat: int | None, level: str | None) -> None:
        """``/tractor addbot``, ``/tractor seat addbot`` and the Add bot button."""
        index = await self.seating.add_bot(table_id, interaction.user.id, seat, level,
                                           can_manage=manages_channels(interaction))
        await send(interaction, t("addbot.done", locale_of(interaction), number=index + 1))


def _person(doc: TableDoc, seat: int, user_id: int) -> Seat | None:
    """`user_id`'s entry at `seat`, seated or waiting for the next hand."""
    for entry in (doc.seats[seat], doc.waiting[seat]):
        if entry is not None and entry.user_id == user_id:
            return entry
    return None
