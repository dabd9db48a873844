"""A table's channel messages through interaction tokens: free table edits (issue 36).

Discord counts no interaction endpoint against the bot's global limit: a follow-up sent
through an interaction's token and that follow-up's edits through the same token are free
for the token's 15 minutes. `Carriers` keeps, per channel, the latest interactions made in
it (any click or command of a guild channel: Ready, Start, Next, ``My hand``, a slash
command), and, per message it sent, the interaction whose token sent it. The publisher
posts a hand's table message through the channel's freshest live token and edits it through
that same token while it lives (`CARRY_LIFE`: a margin under 15 minutes); then, or where no
token was alive, by channel id as before (counted, budgeted, stretched under pressure).

Conservative where Discord is: a token edits its own interaction's follow-ups only
(Discord's documented behaviour), so a fresher token in the channel never edits an older
token's message; the next hand's table message is posted through it. A token whose original
response may still be a deferred "thinking" message is not used (its first follow-up would
replace that message, ephemeral flag and all).

Nothing here is stored: tokens are secrets and live in this process's memory only. The table
message stays one ordinary message of its channel (its id is stored as before), so the
panels' jump links, its buttons, a restart's restore and another cluster's take-over all
keep working, by channel id, once no token is alive.
"""

from __future__ import annotations

from collections import deque
from datetime import timedelta
from typing import Any

import discord

from bot.ui.edits import (
    ORIGINAL_KEY,
    TOKEN_GONE,
    UNCHANGED,
    Picture,
    PictureArg,
    edit_followup_quietly,
    edit_quietly,
    send_followup_quietly,
    send_quietly,
)

__all__ = ["CARRY_LIFE", "Carriers"]

CARRY_LIFE = 14 * 60.0
"""Seconds after its interaction a token still carries messages (Discord: 15 minutes)."""
KEPT = 4
"""Interactions kept per channel (the newest usable one is chosen)."""
PRUNE_EVERY = 256
"""Interactions noted between two sweeps of the expired ones."""
UNKNOWN_MESSAGE = 10008

_kinds = discord.InteractionResponseType
_ANSWERED = (_kinds.deferred_message_update, _kinds.message_update, _kinds.channel_message)
"""Answers after which the token's follow-ups are messages of their own."""


class Carriers:
    """The live in-channel interaction tokens, and the messages each one sent."""

    def __init__(self, life: float = CARRY_LIFE) -> None:
        self.life = timedelta(seconds=life)
        self._latest: dict[int, deque[discord.Interaction[Any]]] = {}
        self._sent: dict[int, discord.Interaction[Any]] = {}
        self._notes = 0
        self.free = 0
        """Sends and edits made through a token so far."""
        self.counted = 0
        """Sends and edits that went by channel id (no live token) so far."""

    async def note(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction (an ``on_interaction`` listener): a guild channel's is kept."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return
        self._notes += 1
        if self._notes % PRUNE_EVERY == 0:
            self._prune()
        kept = self._latest.setdefault(interaction.channel_id, deque(maxlen=KEPT))
        kept.append(interaction)

    def live(self, channel_id: int) -> discord.Interaction[Any] | None:
        """The channel's freshest interaction whose token may send a follow-up now."""
        kept = self._latest.get(channel_id)
        usable = [] if kept is None else [i for i in kept if self._usable(i)]
        return usable[-1] if usable else None

    def carried(self, message_id: int | None) -> discord.Interaction[Any] | None:
        """The interaction whose token sent `message_id` and may still edit it."""
        found = None if message_id is None else self._sent.get(message_id)
        return found if found is not None and self._alive(found) else None

    async def send(self, channel: discord.PartialMessageable, content: str, *,
                   picture: Picture | None = None, **fields: Any) -> int:
        """Send a message to `channel`: a follow-up through its live token (free), else by
        channel id (counted). Returns the message's id."""
        via = self.live(channel.id)
        if via is not None:
            try:
                message_id = await send_followup_quietly(via, content, picture=picture,
                                                         **fields)
            except discord.HTTPException:
                self._drop(via)  # the token no longer works (or refused this): by channel id
            else:
                self._sent[message_id] = via
                self.free += 1
                return message_id
        message_id = await send_quietly(channel, content, picture=picture, **fields)
        self.counted += 1
        return message_id

    async def edit(self, channel: discord.PartialMessageable, message_id: int, *,
                   picture: PictureArg = UNCHANGED, **fields: Any) -> bool:
        """Edit `message_id` of `channel`: through the token that sent it while it lives
        (free; True), else by channel id (counted; False). A message that is gone raises
        `discord.NotFound`, as ``message.edit`` does."""
        via = self.carried(message_id)
        if via is not None:
            try:
                await edit_followup_quietly(via, message_id, picture=picture, **fields)
            except discord.HTTPException as error:
                if error.code == UNKNOWN_MESSAGE:
                    raise
                if error.code in TOKEN_GONE or error.status in (401, 404):
                    self._sent.pop(message_id, None)
                    self._drop(via)
                else:
                    raise
            else:
                self.free += 1
                return True
        await edit_quietly(channel.get_partial_message(message_id), picture=picture, **fields)
        self.counted += 1
        return False

    # ---- inside ---------------------------------------------------------------------------

    def _alive(self, interaction: discord.Interaction[Any]) -> bool:
        return discord.utils.utcnow() < interaction.created_at + self.life

    def _usable(self, interaction: discord.Interaction[Any]) -> bool:
        response = interaction.response
        if not self._alive(interaction) or not response.is_done():
            return False
        if response.type in _ANSWERED:
            return True
        # a deferred "thinking" answer: only once its original response is the real one
        return response.type is _kinds.deferred_channel_message and (
            interaction.extras.get(ORIGINAL_KEY) is not None
            or getattr(interaction, "_original_response", None) is not None)

    def _drop(self, interaction: discord.Interaction[Any]) -> None:
        kept = self._latest.get(interaction.channel_id or 0)
        if kept is not None and interaction in kept:
            kept.remove(interaction)
        for message_id in [m for m, i in self._sent.items() if i is interaction]:
            del self._sent[message_id]

    def _prune(self) -> None:
        """Forget expired tokens (kept bounded by the channels and their live messages)."""
        for channel_id in [c for c, kept in self._latest.items()
                           if not any(self._alive(i) for i in kept)]:
            del self._latest[channel_id]
        for message_id in [m for m, i in self._sent.items() if not self._alive(i)]:
            del self._sent[message_id]
