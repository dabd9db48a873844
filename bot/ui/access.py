"""Who may use a component, and the table an interaction is about (loaded once)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.core.errors import UserFacingError
from bot.core.table import TableDoc
from bot.present.text import seat_name
from bot.services.tables import TableService
from bot.ui.ids import ComponentId
from bot.ui.replies import locale_of

__all__ = ["Access", "manages_channels", "manages_guild"]

DOC_KEY = "tractor.doc"
Seen = Callable[[int, int, "discord.Interaction[Any]"], None]
"""Told of every click a seat's player makes on their seat's components (table, seat)."""


def manages_channels(interaction: discord.Interaction[Any]) -> bool:
    """The user has Manage Channels here (may end tables and change anyone's seat)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)


def manages_guild(interaction: discord.Interaction[Any]) -> bool:
    """The user has Manage Server here (may change the server's defaults and language)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


class Access:
    """Table lookups for interactions, and the seat-ownership check of the router."""

    def __init__(self, service: TableService, seen: Seen | None = None) -> None:
        self.service = service
        self.seen = seen

    async def table(self, interaction: discord.Interaction[Any], table_id: int) -> TableDoc:
        """The table, loaded once per interaction."""
        cached = interaction.extras.get(DOC_KEY)
        if isinstance(cached, tuple) and cached[0] == table_id:
            doc: TableDoc = cached[1]
            return doc
        _, doc = await self.service.load(table_id)
        self.keep(interaction, table_id, doc)
        return doc

    @staticmethod
    def keep(interaction: discord.Interaction[Any], table_id: int, doc: TableDoc) -> None:
        interaction.extras[DOC_KEY] = (table_id, doc)

    async def owner(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        """A seat's component works for the player in that seat only (and the seat must be
        one of the table's: ids allow seats 0–7)."""
        doc = await self.table(interaction, cid.table)
        if cid.seat is not None and cid.seat >= doc.seat_count:
            raise UserFacingError("error.bad_button")  # a seat this table does not have
        seat = doc.seat_of(interaction.user.id)
        if cid.seat is not None and seat != cid.seat:
            raise UserFacingError("error.not_your_button",
                                  player=seat_name(doc, cid.seat, locale_of(interaction)))
        if seat is None:
            raise UserFacingError("error.not_at_table")
        entry = doc.seat(seat)
        message = interaction.message
        if (message is not None and interaction.guild_id is None
                and not message.flags.ephemeral and entry.panel_message is not None
                and entry.dm_channel is not None and message.id < entry.panel_message):
            # A DM panel a newer one replaced (it is not edited to say so): answered
            # through this click's own interaction, with a link to the newest.
            raise UserFacingError("error.old_panel", link=(
                f"https://discord.com/channels/@me/{entry.dm_channel}/{entry.panel_message}"))
        if self.seen is not None and cid.seat is not None:
            self.seen(cid.table, seat, interaction)
