"""Turn pings (bot/ui/policy.py decides when): a short message mentioning the player alone
(in the channel with a **My hand** button: the table message may be far above it),
sent through their latest live interaction token when they have one (a follow-up: free of
the global limit; in the channel for the ``My hand`` panel, in their DMs for a DM panel
click), else in the table's channel (``/tractor settings panel:ephemeral`` or DMs closed,
with ``turn_ping`` on). The previous ping of the seat is deleted (through its token when
that still works), so there is at most one per seat; and once the seat has acted, its ping
sent through a token is deleted too: "your turn" does not stay after the turn."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.present.text import fit
from bot.runtime.budget import Priority, rest_priority
from bot.runtime.logging import table_logger
from bot.storage import Storage
from bot.ui.rows import Rows

__all__ = ["TurnPings"]

Sent = discord.WebhookMessage | int
"""A ping sent: a follow-up (deleted through its token) or a channel message's id."""


class TurnPings:
    """Sends and tidies the pings (kept in memory: a lost one just stays)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._last: dict[tuple[int, int], Sent] = {}

    async def ping(self, table_id: int, seat: int, user_id: int, text: str,
                   channel: discord.PartialMessageable,
                   via: discord.Interaction[Any] | None, view: Rows | None = None) -> None:
        """Ping `user_id` with `text` (and `view`'s buttons): through `via`'s token, else in
        `channel`."""
        key = (table_id, seat)
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False,
                                           roles=False)
        buttons: dict[str, Any] = {} if view is None else {"view": view}
        old = self._last.pop(key, None)
        if old is not None:
            await self._delete(old, channel)
        try:
            sent: Sent
            if via is not None:
                try:
                    sent = await via.followup.send(fit(text), allowed_mentions=mentions,
                                                   wait=True, **buttons)
                    self._last[key] = sent
                    return
                except discord.HTTPException:
                    pass  # the token no longer works: the channel instead
            message = await channel.send(fit(text), allowed_mentions=mentions, **buttons)
            self._last[key] = message.id
        except discord.HTTPException as error:
            table_logger(table_id).warning("turn ping failed: %s", error.status)

    async def answered(self, table_id: int, seat: int,
                       channel: discord.PartialMessageable) -> None:
        """The seat acted: its last ping, a follow-up, is deleted through its token (free).
        One in the channel by id stays until the next replaces it: deleting it now would be
        a counted call ahead of the table's edit."""
        key = (table_id, seat)
        if isinstance(self._last.get(key), discord.WebhookMessage):
            await self._delete(self._last.pop(key), channel)

    @staticmethod
    async def _delete(old: Sent, channel: discord.PartialMessageable) -> None:
        if isinstance(old, discord.WebhookMessage):
            with contextlib.suppress(discord.HTTPException):
                await old.delete()  # through the token (free); an expired one stays
            return
        with rest_priority(Priority.OTHER), contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(old).delete()
