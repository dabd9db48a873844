"""A seat's hand panel answering a click, shared by the rooms that act on it (Play, the
friend call): drawn in its player's settings, the clicked message edited in place, kept as
the seat's newest ephemeral panel; and what a panel message carries, read back (the card
selects' and call selects' defaults: a restarted bot reads a selection from the message).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.table import TableDoc
from bot.i18n import resolve_locale, t
from bot.storage import Storage
from bot.ui.calling import Calling
from bot.ui.ids import verb_of
from bot.ui.panels import Panel, build_panel
from bot.ui.publish import Publisher
from bot.ui.replies import edit_clicked, locale_of
from bot.ui.selection import Selections

__all__ = ["HandPanels", "has_verb", "message_selection", "select_default", "select_values"]


def _children(message: discord.Message | None) -> list[Any]:
    if message is None:
        return []
    return [child for row in message.components for child in getattr(row, "children", [])]


def _verb(child: Any) -> str | None:
    return verb_of(getattr(child, "custom_id", None) or "")


def has_verb(message: discord.Message | None, verb: str) -> bool:
    """Whether `message` carries a component of `verb`."""
    return any(_verb(child) == verb for child in _children(message))


def message_selection(message: discord.Message | None) -> list[str]:
    """The card instances selected in a panel message (its card selects' defaults)."""
    return [option.value for child in _children(message) if _verb(child) == "sel"
            for option in getattr(child, "options", []) if option.default]


def select_default(message: discord.Message | None, verb: str) -> str:
    """The value the select of `verb` shows chosen ("" if none)."""
    for child in _children(message):
        if _verb(child) == verb:
            return next((o.value for o in getattr(child, "options", []) if o.default), "")
    return ""


def select_values(message: discord.Message | None, custom_id: str) -> list[str]:
    """All option values of one select of a message."""
    for child in _children(message):
        if getattr(child, "custom_id", None) == custom_id:
            return [option.value for option in getattr(child, "options", [])]
    return []


class HandPanels:
    """Hand panels redrawn for the clicks on them."""

    def __init__(self, store: Storage, publisher: Publisher, selections: Selections) -> None:
        self.store = store
        self.publisher = publisher
        self.selections = selections

    async def panel(self, doc: TableDoc, table_id: int, seat: int, selected: list[str],
                    locale: str, *, call: Calling | None = None) -> Panel:
        """`seat`'s panel in its player's language and colours (`call`: the friend call the
        click made)."""
        entry = doc.seats[seat]
        four_colour = True
        if entry is not None and entry.user_id is not None:
            settings = await self.store.user_settings(entry.user_id)
            four_colour = settings.four_colour
            if settings.language:
                locale = resolve_locale(settings.language)
        return await build_panel(doc, table_id, seat, locale, selected,
                                 pictures=self.publisher.pictures,
                                 four_colour=four_colour, call=call)

    async def edit(self, interaction: discord.Interaction[Any], doc: TableDoc,
                   table_id: int, seat: int, selected: list[str], locale: str, *,
                   call: Calling | None = None) -> None:
        """The clicked panel redrawn."""
        panel = await self.panel(doc, table_id, seat, selected, locale, call=call)
        await edit_clicked(interaction, content=panel.content, picture=panel.picture,
                           view=panel.view)

    async def stale(self, interaction: discord.Interaction[Any], doc: TableDoc,
                    table_id: int, seat: int, locale: str) -> None:
        """"This table has moved on": the panel is replaced by a fresh one."""
        self.selections.clear(table_id, seat)
        await self.edit(interaction, doc, table_id, seat, [], locale)
        await interaction.followup.send(t("error.stale", locale), ephemeral=True)

    def track(self, interaction: discord.Interaction[Any], table_id: int, seat: int) -> bool:
        """Remember this interaction as the seat's latest ephemeral hand panel when its
        original response is that panel: the ``My hand`` reply, or an ephemeral panel
        message a component was used on (answered by an update or a deferred update)."""
        kind = interaction.response.type
        kinds = discord.InteractionResponseType
        message = interaction.message
        if kind in (kinds.message_update, kinds.deferred_message_update):
            if message is None or not message.flags.ephemeral:
                return False
        elif kind is not kinds.deferred_channel_message:
            return False
        self.publisher.track_ephemeral(table_id, seat, interaction, locale_of(interaction),
                                       new=kind is kinds.deferred_channel_message)
        return True
