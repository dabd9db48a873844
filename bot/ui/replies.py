"""Every answer to a user goes through here: fitted to Discord's limits, sent once, and the
ONE error path of every entry point (slash commands, components, modals, autocomplete).

- `fit`: message content ≤ 2000 characters, cut with "…" (`quote` cuts user input quoted
  back, so a ruling about a 2000-character input still fits and says what was wrong);
- `send`: reply or follow up (whichever is due), content fitted, mentions off, a refused
  send logged instead of lost;
- `edit_quietly` / `send_quietly`: edit or send a message without parsing Discord's reply
  into a `discord.Message` (publishing and panel edits never read it); a `Picture` the
  message already carries is kept, not uploaded again (`attached`);
- `fail`: a refusal (`UserFacingError`, the engine's `TractorError`) becomes its translated
  reason; a storage fault "try again" for that table; anything else is logged with the
  table id and answered politely — exactly one error reply per interaction.
"""

from __future__ import annotations

import contextlib
import io
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, NamedTuple

import discord
from discord import app_commands
from discord.http import handle_message_parameters

from bot.errors import UserFacingError
from bot.i18n import resolve_locale, t
from bot.logging import table_logger
from bot.storage import SeasonNotFound, StorageError, Store
from bot.text import CONTENT_LIMIT, fit, ruling_text
from engine.errors import InvalidNotation, TractorError

__all__ = [
    "CONTENT_LIMIT",
    "Picture",
    "attached",
    "edit_clicked",
    "edit_quietly",
    "fail",
    "fit",
    "locale_of",
    "pages",
    "quote",
    "reader_locale",
    "send",
    "send_quietly",
]

QUOTE_LIMIT = 60
"""Characters of a user's input quoted back in a reply."""
LOCALE_KEY = "tractor.locale"
FAILED_KEY = "tractor.failed"
ANSWERED_KEY = "tractor.answered"


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """User input to quote back in a reply: stripped and cut with "…"."""
    return fit(" ".join(text.split()), limit)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language to answer this person in (see `reader_locale`)."""
    cached = interaction.extras.get(LOCALE_KEY)
    return cached if isinstance(cached, str) else resolve_locale(interaction.locale)


async def reader_locale(interaction: discord.Interaction[Any], store: Store) -> str:
    """Look up (once per interaction) the language this user reads: their
    ``/tractor settings language``, else their Discord client's."""
    cached = interaction.extras.get(LOCALE_KEY)
    if isinstance(cached, str):
        return cached
    language: str | None = None
    try:
        language = (await store.user_settings(interaction.user.id)).language
    except StorageError as error:  # answer anyway, in the client's language
        table_logger(None).warning("user settings unavailable: %s", error)
    locale = resolve_locale(language or interaction.locale)
    interaction.extras[LOCALE_KEY] = locale
    return locale


async def send(interaction: discord.Interaction[Any], content: str, *, ephemeral: bool = True,
               **kwargs: Any) -> None:
    """Answer the interaction, or follow up if it was answered (deferred) already."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    content = fit(content)
    try:
        if (interaction.response.type is discord.InteractionResponseType.deferred_channel_message
                and not interaction.extras.get(ANSWERED_KEY)):
            # The answer replaces the "thinking…" the interaction was acknowledged with.
            interaction.extras[ANSWERED_KEY] = True
            edit = {k: v for k, v in kwargs.items()
                    if k in ("view", "embed", "embeds", "allowed_mentions")}
            if "files" in kwargs:
                edit["attachments"] = kwargs["files"]
            await interaction.edit_original_response(content=content, **edit)
        elif interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
    except discord.HTTPException as error:
        table_logger(None).warning("reply refused by Discord: %s %s", error.status,
                                   error.text[:200])


def pages(lines: list[str], limit: int = CONTENT_LIMIT, most: int = 3) -> list[str]:
    """`lines` packed into at most `most` messages of ≤ `limit` characters each (a line
    too long alone is cut by `fit`; lines past the last message are dropped, the last
    message ending "…")."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = fit(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    if len(chunks) > most:
        chunks = chunks[:most]
        chunks[-1] = fit(chunks[-1] + "\n…", limit) if len(chunks[-1]) + 2 <= limit \
            else fit(chunks[-1][:limit - 1] + "…", limit)
    return chunks


@dataclass(frozen=True, slots=True)
class Picture:
    """The image a message shows: PNG bytes under a file name."""

    png: bytes
    filename: str

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.png), filename=self.filename)


class _Held(NamedTuple):
    """What one message's attachment is (the picture's size, hash and name)."""

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


HELD_KEPT = 8192
"""Messages whose attachment is remembered, per client (least recently edited dropped)."""
_HELD: weakref.WeakKeyDictionary[Any, OrderedDict[int, _Held]] = weakref.WeakKeyDictionary()


def _held(state: Any) -> OrderedDict[int, _Held]:
    """The attachments this client's messages carry (in memory: a restarted bot uploads
    each picture once more)."""
    held = _HELD.get(state)
    if held is None:
        held = _HELD[state] = OrderedDict()
    return held


def attached(message: discord.PartialMessage | discord.Message,
             picture: Picture) -> int | None:
    """The id of `message`'s attachment when it is `picture` already (tests, callers)."""
    found = _held(message._state).get(message.id)
    if found is None or found[:3] != (len(picture.png), hash(picture.png), picture.filename):
        return None
    return found.attachment_id


def _remember(state: Any, message_id: int, picture: Picture | None, data: Any) -> None:
    held = _held(state)
    held.pop(message_id, None)
    files = data.get("attachments") if isinstance(data, dict) else None
    if picture is None or not files or len(files) != 1:
        return
    held[message_id] = _Held(len(picture.png), hash(picture.png), picture.filename,
                             int(files[0]["id"]))
    while len(held) > HELD_KEPT:
        held.popitem(last=False)


_UNSET: Any = object()


async def edit_quietly(message: discord.PartialMessage | discord.Message, *,
                       picture: Picture | None = _UNSET, **fields: Any) -> None:
    """``message.edit(**fields)`` (content, attachments, view, allowed_mentions) minus the
    `discord.Message` built from Discord's reply: a panel with four card selects costs a
    few hundred microseconds to parse, and nothing here reads it. Errors are the same.

    `picture` (instead of ``attachments``) is the one image the message shows after the
    edit (None: none): the attachment it carries already is kept when it is that picture
    (no upload), else the picture is uploaded; a kept attachment Discord no longer knows
    is uploaded after all."""
    state = message._state
    kept = None if picture is None or picture is _UNSET else attached(message, picture)
    if picture is not _UNSET:
        fields["attachments"] = ([] if picture is None else
                                 [_Attached(kept)] if kept is not None else [picture.file()])
    view = fields.get("view", discord.utils.MISSING)
    if view is not discord.utils.MISSING:
        state.prevent_view_updates_for(message.id)
    previous = state.allowed_mentions if "content" in fields else None
    try:
        with handle_message_parameters(previous_allowed_mentions=previous,
                                       **fields) as params:
            data = await state.http.edit_message(message.channel.id, message.id,
                                                 params=params)
    except discord.HTTPException as error:
        _held(state).pop(message.id, None)
        if kept is None or error.status != 400:
            raise
        assert picture is not None and picture is not _UNSET
        fields["attachments"] = [picture.file()]  # the kept one is gone: upload it
        with handle_message_parameters(previous_allowed_mentions=previous,
                                       **fields) as params:
            data = await state.http.edit_message(message.channel.id, message.id,
                                                 params=params)
    if picture is not _UNSET or "attachments" in fields:
        _remember(state, message.id, None if picture is _UNSET else picture, data)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message.id)


async def send_quietly(channel: discord.PartialMessageable, content: str, *,
                       picture: Picture | None = None, **fields: Any) -> int:
    """``channel.send(content, file=..., **fields)`` (view, allowed_mentions) minus the
    `discord.Message` built from the reply; returns the new message's id."""
    state = channel._state
    files = [] if picture is None else [picture.file()]
    with handle_message_parameters(content=content, files=files,
                                   previous_allowed_mentions=state.allowed_mentions,
                                   **fields) as params:
        data = await state.http.send_message(channel.id, params=params)
    message_id = int(data["id"])
    _remember(state, message_id, picture, data)
    view = fields.get("view")
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
    return message_id


async def edit_clicked(interaction: discord.Interaction[Any], *,
                       picture: Picture | None = _UNSET, **fields: Any) -> None:
    """Edit the message a (deferred) component was used on: a DM or channel message
    directly, an ephemeral one through the interaction. `picture`: as `edit_quietly`."""
    fields.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if "content" in fields and isinstance(fields["content"], str):
        fields["content"] = fit(fields["content"])
    message = interaction.message
    if message is not None and not message.flags.ephemeral:
        await edit_quietly(message, picture=picture, **fields)
        return
    if picture is not _UNSET:
        fields["attachments"] = [] if picture is None else [picture.file()]
    await interaction.edit_original_response(**fields)


def error_text(error: BaseException, locale: str) -> str | None:
    """The reply to a refusal, or None for a bug."""
    if isinstance(error, UserFacingError):
        return t(error.key, locale, **error.kwargs)
    if isinstance(error, InvalidNotation):
        return t("error.bad_cards", locale, reason=quote(ruling_text(error, locale), 300))
    if isinstance(error, TractorError):
        return t("error.not_allowed", locale, reason=ruling_text(error, locale))
    if isinstance(error, SeasonNotFound):
        return t("error.unknown_season", locale, season=error.season)
    if isinstance(error, StorageError):
        return t("error.try_again", locale)
    return None


async def fail(interaction: discord.Interaction[Any], error: BaseException,
               table_id: int | None = None) -> None:
    """THE error path: answer `error` once (a second call for the same interaction, e.g.
    the command tree's after a handler, is ignored)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if interaction.extras.get(FAILED_KEY):
        return
    interaction.extras[FAILED_KEY] = True
    locale = locale_of(interaction)
    text = error_text(error, locale)
    log = table_logger(table_id)
    if text is None:
        log.error("interaction failed: %s", type(error).__name__,
                  exc_info=(type(error), error, error.__traceback__))
        text = t("error.internal", locale)
    elif isinstance(error, StorageError):
        log.warning("storage unavailable: %s", error)
    if interaction.type is discord.InteractionType.autocomplete:
        return  # an autocomplete cannot show a message: it offers nothing
    with contextlib.suppress(discord.HTTPException):
        await send(interaction, text)
