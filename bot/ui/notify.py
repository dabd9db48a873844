"""Turn pings: a player who plays from the in-channel panel only (``/tractor settings
panel:ephemeral``, or DMs closed) gets a short channel message mentioning them alone when
it becomes their turn to bury or play, unless they turned it off (``turn_ping``). The
previous ping of the seat is deleted, so the channel keeps at most one per seat."""

from __future__ import annotations

import contextlib

import discord

from bot.core.table import TableDoc
from bot.core.text import fit
from bot.i18n import resolve_locale, t
from bot.runtime.logging import table_logger
from bot.storage import Storage
from engine.game import Phase

__all__ = ["TurnPings"]


class TurnPings:
    """Sends and tidies the pings (message ids kept in memory: a lost one just stays)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._last: dict[tuple[int, int], int] = {}

    async def maybe_ping(self, table_id: int, doc: TableDoc, seat: int,
                         channel: discord.PartialMessageable) -> None:
        """Ping `seat` if it is now their turn and they want it (see the module doc)."""
        match = doc.get_match()
        entry = doc.seats[seat]
        if match is None or entry is None or entry.user_id is None or entry.autopilot:
            return
        public = match.public_view()
        if public.phase not in (Phase.BURYING, Phase.PLAYING) or public.turn != seat:
            return
        settings = await self.store.user_settings(entry.user_id)
        if not settings.turn_ping or not (settings.panel == "ephemeral" or entry.dm_closed):
            return
        locale = resolve_locale(settings.language or entry.locale)
        text = t("ping.your_turn", locale, player=f"<@{entry.user_id}>",
                 number=public.hand_no)
        key = (table_id, seat)
        old = self._last.pop(key, None)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
        try:
            message = await channel.send(fit(text), allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(entry.user_id)], everyone=False, roles=False))
        except discord.HTTPException as error:
            table_logger(table_id).warning("turn ping failed: %s", error.status)
            return
        self._last[key] = message.id
