"""Every answer to a user goes through here: fitted to Discord's limits, sent once, and the
ONE error path of every entry point (slash commands, components, modals, autocomplete).

- `fit`: message content ≤ 2000 characters, cut with "…" (`quote` cuts user input quoted
  back, so a ruling about a 2000-character input still fits and says what was wrong);
- `send`: reply or follow up (whichever is due), content fitted, mentions off, a refused
  send logged instead of lost;
- `edit_clicked`: edit the message a component was used on (as the click's answer when
  it is not acknowledged yet), cheaply (bot/ui/edits.py);
- `fail`: a refusal (`UserFacingError`, the engine's `TractorError`) becomes its translated
  reason; a storage fault "try again" for that table; anything else is logged with the
  table id and answered politely — exactly one error reply per interaction.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import UserFacingError
from bot.i18n import resolve_locale, t
from bot.present.text import CONTENT_LIMIT, fit, ruling_text
from bot.runtime.logging import table_logger
from bot.storage import SeasonNotFound, Storage, StorageError
from bot.ui.edits import (
    ORIGINAL_KEY,
    TOKEN_GONE,
    UNCHANGED,
    PictureArg,
    answer_update,
    deferral,
    edit_original_quietly,
    edit_quietly,
)
from engine.errors import InvalidNotation, TractorError

__all__ = [
    "CONTENT_LIMIT",
    "edit_clicked",
    "fail",
    "fit",
    "locale_of",
    "pages",
    "quote",
    "reader_locale",
    "send",
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


async def reader_locale(interaction: discord.Interaction[Any], store: Storage) -> str:
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
            original = await interaction.edit_original_response(content=content, **edit)
            # the answer is in: the token's follow-ups are messages of their own now
            interaction.extras[ORIGINAL_KEY] = original.id
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


async def edit_clicked(interaction: discord.Interaction[Any], *,
                       picture: PictureArg = UNCHANGED, **fields: Any) -> None:
    """Edit the message a component was used on: as the click's answer when it is not
    acknowledged yet (one call instead of a deferral and an edit), else through the
    interaction (its original response: interaction routes are not bound by the bot's
    global rate limit, a channel message edit is). `picture`: the one image it shows after
    the edit (bot/ui/edits.py), instead of ``attachments``."""
    fields.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if "content" in fields and isinstance(fields["content"], str):
        fields["content"] = fit(fields["content"])
    message = interaction.message
    if (message is not None and not await deferral(interaction)
            and not interaction.response.is_done()):
        await answer_update(interaction, picture=picture, **fields)
        return
    try:  # the clicked message is the original response of a deferred update
        await edit_original_quietly(interaction, picture=picture, **fields)
    except discord.HTTPException as error:
        if (message is None or message.flags.ephemeral
                or (error.status != 401 and error.code not in TOKEN_GONE)):
            raise
        await edit_quietly(message, picture=picture, **fields)  # the token is refused


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
