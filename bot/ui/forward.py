"""DM clicks on a table another cluster drives: forwarded to the owner of its shard through
the database inbox (`bot.services.inbox`), and replayed there.

Discord delivers every DM interaction (the hand panels' clicks) to shard 0, whatever server
the table is in. The router (`bot.ui.components.ComponentRouter`) runs on the receiving
process the checks that need the click itself (its id, the message it came from, the
select's values) and acknowledges it; then `Forwarding.elsewhere` tells whether another
process drives the table (its server's shard is not held here). If so, `Forwarding.forward`
queues the click (`payload_of`: the interaction's own fields, the clicked message's
components, how it was acknowledged, the token) and waits for the owner. The owner's
`Forwarding.serve` loop rebuilds a real `discord.Interaction` from it (`rebuild`: on the
owner's connection, marked acknowledged) and hands it to `ComponentRouter.replay`: the
seat check on the owner's table, then the verb's handler, exactly as for a click it had
received itself. Its answers (the panel redrawn, a refusal) go through the interaction's
token, which any process of the bot may use for 15 minutes; the table and the other panels
follow by the owner's publisher.

The receiver answers only when no owner took the click within `FORWARD_WAIT` seconds
(``error.try_again``: the click is withdrawn, never applied later) or the owner could not
run it (``error.internal``). Nothing is applied twice: a click is queued once per
interaction id, and a click replayed again (its owner died before marking it done) meets
the table's step check. A server's own interactions reach the process holding its shard:
only DM clicks are forwarded. A modal verb (``Type…``) is not forwarded (the modal must be
the click's first answer): the receiver opens it itself (it needs no table); its
submission is routed like a click (its id is the ``typed`` verb's) and forwarded here like
one, the owner checking the seat and the step before applying the typed cards.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

import discord

from bot.i18n import t
from bot.runtime.logging import table_logger
from bot.services.inbox import FAILED, FORWARD_WAIT, TRY_AGAIN, Inbox
from bot.services.ownership import Ownership
from bot.storage import Storage
from bot.storage.cluster import InboxItem
from bot.ui.ids import ComponentId
from bot.ui.replies import locale_of, send

__all__ = ["ACK_FIELD", "DONE", "Forwarding", "payload_of", "rebuild"]

ACK_FIELD = "tractor_ack"
"""The payload's field holding how the receiver acknowledged the click (a response type)."""
DONE = "done"
"""The owner's outcome for a replayed click (it answered the player itself)."""
GUILDS_KEPT = 10_000
"""Tables whose server is remembered (a table never changes servers)."""
Replay = Callable[[discord.Interaction[Any]], Awaitable[None]]


def _user_json(user: discord.User | discord.Member) -> dict[str, Any]:
    avatar = user.avatar
    return {"id": str(user.id), "username": user.name, "discriminator": user.discriminator,
            "global_name": user.global_name, "avatar": None if avatar is None else avatar.key,
            "bot": user.bot}


def payload_of(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """What the owner needs to rebuild a DM click or modal submission (`rebuild`): Discord's
    interaction payload with the fields discord.py and the handlers read, and how it was
    acknowledged."""
    message = interaction.message
    assert message is not None  # the router checked the click came with its message
    channel_id = str(interaction.channel_id or message.channel.id)
    user = _user_json(interaction.user)
    author = _user_json(message.author)
    response = interaction.response.type
    assert response is not None  # acknowledged before it is forwarded
    return {
        "id": str(interaction.id),
        "application_id": str(interaction.application_id),
        "type": interaction.type.value,
        "token": interaction.token,
        "version": interaction.version,
        "attachment_size_limit": interaction.filesize_limit,
        "locale": interaction.locale.value,
        "data": interaction.data,
        "channel_id": channel_id,
        "channel": {"id": channel_id, "type": discord.ChannelType.private.value,
                    "recipients": [user]},
        "user": user,
        "message": {
            "id": str(message.id), "channel_id": channel_id, "type": message.type.value,
            "author": author, "content": "", "embeds": [], "attachments": [],
            "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False,
            "tts": False, "timestamp": message.created_at.isoformat(),
            "edited_timestamp": None, "flags": message.flags.value,
            "components": [row.to_dict() for row in message.components],
        },
        ACK_FIELD: response.value,
    }


def rebuild(client: discord.Client, payload: Mapping[str, Any]) -> discord.Interaction[Any]:
    """The forwarded click as a `discord.Interaction` of this process, acknowledged as the
    receiver acknowledged it (its answers are edits and follow-ups through the token)."""
    interaction: discord.Interaction[Any] = discord.Interaction(
        data=cast(Any, dict(payload)), state=client._connection)
    interaction.response._response_type = discord.InteractionResponseType(payload[ACK_FIELD])
    return interaction


class Forwarding:
    """Both sides of a forwarded DM click: the receiver's (`elsewhere`, `forward`) and the
    owner's (`serve`, `stop`)."""

    def __init__(self, client: discord.Client, store: Storage, inbox: Inbox,
                 ownership: Ownership, *, wait: float = FORWARD_WAIT) -> None:
        self.client = client
        self.store = store
        self.inbox = inbox
        self.ownership = ownership
        self.wait = wait
        self._guilds: OrderedDict[int, int] = OrderedDict()
        self._server: asyncio.Task[None] | None = None

    async def elsewhere(self, interaction: discord.Interaction[Any],
                        table_id: int) -> int | None:
        """The shard of the table when another process drives it and the click is a DM's;
        None when it is this process's to handle (or the table is unknown: the handler
        says so)."""
        if interaction.guild_id is not None or not table_id:
            return None
        guild_id = self._guilds.get(table_id)
        if guild_id is None:
            stored = await self.store.load_table(table_id)  # never cached: not ours
            if stored is None:
                return None
            guild_id = self._guilds[table_id] = stored.guild_id
            while len(self._guilds) > GUILDS_KEPT:
                self._guilds.popitem(last=False)
        if self.ownership.owns(guild_id):
            return None
        return self.ownership.shard(guild_id)

    async def forward(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      shard: int) -> None:
        """Queue the (acknowledged) click for the owner of `shard` and wait; the player is
        answered here only if no owner took it, or the owner could not run it."""
        outcome = await self.inbox.forward(interaction.id, shard, cid.table,
                                           payload_of(interaction), wait=self.wait)
        table_logger(cid.table).debug("click %s forwarded to shard %d: %s", interaction.id,
                                      shard, outcome)
        if outcome in (TRY_AGAIN, FAILED):
            key = "error.try_again" if outcome == TRY_AGAIN else "error.internal"
            await send(interaction, t(key, locale_of(interaction)))

    def serve(self, owner: str, shards: Callable[[], Mapping[int, int]],
              replay: Replay) -> None:
        """Start replaying the clicks queued for the shards this process holds."""
        async def handle(item: InboxItem) -> str:
            await replay(rebuild(self.client, item.payload))
            return DONE

        if self._server is None:
            self._server = asyncio.get_running_loop().create_task(
                self.inbox.serve(owner, shards, handle))

    async def stop(self) -> None:
        """Stop serving (before the leases are given up)."""
        server, self._server = self._server, None
        if server is not None:
            server.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await server
