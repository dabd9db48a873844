"""Sending and editing the bot's panels and table messages cheaply (issue 16).

- `send_quietly`, `edit_quietly`: a channel or DM message, without building a
  `discord.Message` from Discord's reply (a panel with four card selects costs a few
  hundred microseconds to parse, and nothing here reads it);
- `edit_original_quietly`: an interaction's original response (an ephemeral panel), without
  the `discord.InteractionMessage`;
- `send_followup_quietly`, `edit_followup_quietly`: a follow-up message through an
  interaction's token (a table message in its channel: free of the global limit), without
  the `discord.WebhookMessage`;
- `answer_update`: a click answered with the updated message (UPDATE_MESSAGE): one call
  instead of a deferral and an edit; `defer_late` defers a click whose handler has not
  begun answering in time (Discord's limit is 3 seconds).

Pictures: a message shows at most one `Picture`. Each client remembers, per message, which
picture its attachment is; an edit that shows the same picture lists that attachment
(``attachments: [{"id": …}]``: Discord keeps it, nothing is uploaded) and a changed picture
is uploaded. The memory is in the process only: after a restart each message's picture is
uploaded once more. An attachment Discord no longer knows (400) is forgotten and the
picture uploaded instead, in the same call.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

__all__ = [
    "ANSWERING_KEY",
    "TOKEN_GONE",
    "UNCHANGED",
    "Picture",
    "PictureArg",
    "answer_update",
    "attached",
    "defer_late",
    "deferral",
    "edit_followup_quietly",
    "edit_original_quietly",
    "edit_quietly",
    "send_followup_quietly",
    "send_quietly",
]

ANSWERING_KEY = "tractor.answering"
"""Set on an interaction whose answer (`answer_update`) is on its way: a router that defers
clicks left unanswered too long must not defer this one."""
ORIGINAL_KEY = "tractor.original"
"""The id of an interaction's original response, once an edit's reply told it."""
TOKEN_GONE = frozenset({10015, 50027})
"""Unknown Webhook, Invalid Webhook Token: an interaction's token no longer works."""
HELD_KEPT = 8192
"""Messages whose attachment is remembered, per client (the least recently sent dropped)."""


@dataclass(frozen=True, slots=True)
class Picture:
    """The image a message shows: PNG bytes under a file name."""

    png: bytes
    filename: str

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.png), filename=self.filename)


class _Unchanged:
    """`UNCHANGED`: the edit leaves the attachments alone (or sets them itself)."""


UNCHANGED: Any = _Unchanged()
PictureArg = Picture | None
"""A message's picture after an edit: a `Picture`, None (no picture) or `UNCHANGED`."""


class _Held(NamedTuple):
    """What one message's attachment is: the picture's size, hash and name, and its id."""

    size: int
    digest: int
    filename: str
    attachment_id: int


class _Attached:
    """An attachment the message carries already: an edit that lists it keeps it."""

    __slots__ = ("id",)

    def __init__(self, attachment_id: int) -> None:
        self.id = attachment_id

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id}


_HELD: weakref.WeakKeyDictionary[Any, OrderedDict[int, _Held]] = weakref.WeakKeyDictionary()


def _held(state: Any) -> OrderedDict[int, _Held]:
    """What this client's messages carry (`state`: its connection state)."""
    held = _HELD.get(state)
    if held is None:
        held = _HELD[state] = OrderedDict()
    return held


def attached(state: Any, message_id: int | None, picture: Picture) -> int | None:
    """The id of the message's attachment when it is `picture` already."""
    found = None if message_id is None else _held(state).get(message_id)
    if found is None or found[:3] != (len(picture.png), hash(picture.png), picture.filename):
        return None
    return found.attachment_id


def _remember(state: Any, message_id: int, picture: PictureArg, data: Any) -> None:
    """After a send or edit: what the message carries now (from Discord's reply)."""
    held = _held(state)
    held.pop(message_id, None)
    files = data.get("attachments") if isinstance(data, dict) else None
    if picture is None or picture is UNCHANGED or not files or len(files) != 1:
        return
    held[message_id] = _Held(len(picture.png), hash(picture.png), picture.filename,
                             int(files[0]["id"]))
    while len(held) > HELD_KEPT:
        held.popitem(last=False)


async def _with_picture(state: Any, message_id: int | None, picture: PictureArg,
                        fields: dict[str, Any],
                        call: Callable[[dict[str, Any]], Awaitable[Any]]) -> Any:
    """``call(fields)`` with ``fields["attachments"]`` showing `picture` (unless
    `UNCHANGED`): the message's own attachment when it is that picture, else an upload. A
    kept attachment Discord refuses (400: it no longer knows it) is uploaded instead."""
    kept = None
    if picture is not UNCHANGED:
        kept = None if picture is None else attached(state, message_id, picture)
        fields["attachments"] = ([] if picture is None else
                                 [_Attached(kept)] if kept is not None else [picture.file()])
    try:
        return await call(fields)
    except discord.HTTPException as error:
        if message_id is not None:
            _held(state).pop(message_id, None)
        if kept is None or error.status != 400:
            raise
        assert isinstance(picture, Picture)
        fields["attachments"] = [picture.file()]
        return await call(fields)


async def edit_quietly(message: discord.PartialMessage | discord.Message, *,
                       picture: PictureArg = UNCHANGED, **fields: Any) -> None:
    """``message.edit(**fields)`` (content, view, allowed_mentions; `picture`: the one
    image it shows after the edit, instead of ``attachments``) minus the `discord.Message`
    built from the reply. Errors are ``message.edit``'s."""
    state = message._state
    view = fields.get("view", discord.utils.MISSING)
    if view is not discord.utils.MISSING:
        state.prevent_view_updates_for(message.id)
    previous = state.allowed_mentions if "content" in fields else None

    async def call(fields: dict[str, Any]) -> Any:
        with handle_message_parameters(previous_allowed_mentions=previous,
                                       **fields) as params:
            return await state.http.edit_message(message.channel.id, message.id,
                                                 params=params)

    data = await _with_picture(state, message.id, picture, fields, call)
    if picture is not UNCHANGED or "attachments" in fields:
        _remember(state, message.id, picture, data)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message.id)


async def send_quietly(channel: discord.PartialMessageable, content: str, *,
                       picture: Picture | None = None, **fields: Any) -> int:
    """``channel.send(content, **fields)`` (view, allowed_mentions) with `picture` attached,
    minus the `discord.Message` built from the reply; returns the new message's id."""
    state = channel._state
    files = [] if picture is None else [picture.file()]
    with handle_message_parameters(content=content, files=files,
                                   previous_allowed_mentions=state.allowed_mentions,
                                   **fields) as params:
        data = await state.http.send_message(channel.id, params=params)
    return _sent(state, data, picture, fields)


def _sent(state: Any, data: Any, picture: Picture | None, fields: dict[str, Any]) -> int:
    """A new message's id from its reply; its picture remembered, its view stored."""
    message_id = int(data["id"])
    _remember(state, message_id, picture, data)
    view = fields.get("view")
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
    return message_id


def original_id(interaction: discord.Interaction[Any]) -> int | None:
    """The id of the interaction's original response, when known: told by an earlier
    edit's reply, or the clicked message itself when a click was answered by an update."""
    known = interaction.extras.get(ORIGINAL_KEY)
    if isinstance(known, int):
        return known
    kinds = discord.InteractionResponseType
    if interaction.message is not None and interaction.response.type in (
            kinds.message_update, kinds.deferred_message_update):
        return interaction.message.id
    return None


async def edit_original_quietly(interaction: discord.Interaction[Any], *,
                                picture: PictureArg = UNCHANGED, **fields: Any) -> None:
    """``interaction.edit_original_response(**fields)`` (`picture`: as `edit_quietly`)
    minus the `discord.InteractionMessage` built from the reply."""
    state = interaction._state
    message_id = original_id(interaction)
    http = state.http

    async def call(fields: dict[str, Any]) -> Any:
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions,
                                       **fields) as params:
            return await async_context.get().edit_original_interaction_response(
                interaction.application_id, interaction.token, session=interaction._session,
                proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files)

    data = await _with_picture(state, message_id, picture, fields, call)
    if isinstance(data, dict) and data.get("id") is not None:
        message_id = interaction.extras[ORIGINAL_KEY] = int(data["id"])
    if message_id is not None and (picture is not UNCHANGED or "attachments" in fields):
        _remember(state, message_id, picture, data)
    view = fields.get("view")
    if message_id is not None and view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


async def send_followup_quietly(interaction: discord.Interaction[Any], content: str, *,
                                picture: Picture | None = None, **fields: Any) -> int:
    """A (public) follow-up message through `interaction`'s token (``followup.send(...,
    wait=True)``: view, allowed_mentions) with `picture` attached, minus the
    `discord.WebhookMessage`; returns the new message's id. Errors are ``followup.send``'s."""
    state = interaction._state
    http = state.http
    files = [] if picture is None else [picture.file()]
    with handle_message_parameters(content=content, files=files,
                                   previous_allowed_mentions=state.allowed_mentions,
                                   **fields) as params:
        data = await async_context.get().execute_webhook(
            interaction.application_id, interaction.token, session=interaction._session,
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files, wait=True,
            with_components=fields.get("view") is not None)
    assert isinstance(data, dict)
    return _sent(state, data, picture, fields)


async def edit_followup_quietly(interaction: discord.Interaction[Any], message_id: int, *,
                                picture: PictureArg = UNCHANGED, **fields: Any) -> None:
    """Edit `interaction`'s follow-up `message_id` through its token
    (``followup.edit_message``; `picture`: as `edit_quietly`), minus the message built from
    the reply. Discord edits only that interaction's own follow-ups this way."""
    state = interaction._state
    http = state.http
    view = fields.get("view", discord.utils.MISSING)
    if view is not discord.utils.MISSING:
        state.prevent_view_updates_for(message_id)
    previous = state.allowed_mentions if "content" in fields else None

    async def call(fields: dict[str, Any]) -> Any:
        with handle_message_parameters(previous_allowed_mentions=previous,
                                       **fields) as params:
            return await async_context.get().edit_webhook_message(
                interaction.application_id, interaction.token, message_id,
                session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
                payload=params.payload, multipart=params.multipart, files=params.files,
                with_components=bool(view))

    data = await _with_picture(state, message_id, picture, fields, call)
    if picture is not UNCHANGED or "attachments" in fields:
        _remember(state, message_id, picture, data)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


async def answer_update(interaction: discord.Interaction[Any], *,
                        picture: PictureArg = UNCHANGED, **fields: Any) -> None:
    """Answer a click (not acknowledged yet) by editing the message it was used on
    (UPDATE_MESSAGE; `picture`: as `edit_quietly`): ``interaction.response.edit_message``
    minus the `discord.InteractionCallbackResponse` (and its message) built from Discord's
    answer, of which only the attachment is read."""
    message = interaction.message
    assert message is not None
    state = interaction._state
    response = interaction.response
    kinds = discord.InteractionResponseType

    async def call(fields: dict[str, Any]) -> Any:
        if response.is_done():
            raise discord.InteractionResponded(interaction)
        if "view" in fields:
            state.prevent_view_updates_for(message.id)
        params = interaction_message_response_params(
            type=kinds.message_update.value, previous_allowed_mentions=state.allowed_mentions,
            **fields)
        http = state.http
        data = await async_context.get().create_interaction_response(
            interaction.id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, params=params)
        response._response_type = kinds.message_update  # as edit_message marks it answered
        resource = data.get("resource") if isinstance(data, dict) else None
        return resource.get("message") if isinstance(resource, dict) else None

    interaction.extras[ANSWERING_KEY] = True
    data = await _with_picture(state, message.id, picture, fields, call)
    if picture is not UNCHANGED or "attachments" in fields:
        _remember(state, message.id, picture, data)  # its attachment, as for an edit
    view = fields.get("view")
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message.id)


async def defer_late(interaction: discord.Interaction[Any], after: float) -> None:
    """For a click whose handler answers it itself (`answer_update`): defer it (an update:
    the handler then edits the message, see `deferral`) unless the answer began within
    `after` seconds."""
    await asyncio.sleep(after)
    if interaction.response.is_done() or interaction.extras.get(ANSWERING_KEY):
        return
    deferring = asyncio.ensure_future(interaction.response.defer())
    interaction.extras[ANSWERING_KEY] = deferring
    with contextlib.suppress(discord.HTTPException):
        await deferring


async def deferral(interaction: discord.Interaction[Any]) -> bool:
    """Whether `defer_late` deferred the click (waiting for its call to end): then the
    answer is an edit, not `answer_update`."""
    deferring = interaction.extras.get(ANSWERING_KEY)
    if not isinstance(deferring, asyncio.Future):
        return False
    with contextlib.suppress(discord.HTTPException):
        await asyncio.shield(deferring)
    return True
