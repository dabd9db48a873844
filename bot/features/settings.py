"""Settings: ``/tractor settings``, each person's card colours, hand panel, language, turn
ping and forced plays, and the server's language (Manage Server). The answer is ephemeral,
in the person's language (the one just chosen, if any)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.core.errors import UserFacingError
from bot.features import App, Feature, add_feature, guarded
from bot.i18n import (
    NATIVE_NAMES,
    SUPPORTED,
    lstr,
    resolve_locale,
    server_locale,
    stored_server_language,
    t,
)
from bot.ui.access import manages_guild
from bot.ui.choices import LANGUAGE_CHOICES
from bot.ui.replies import send

__all__ = ["Settings", "setup"]

_DECK_CHOICES = [app_commands.Choice(name=lstr("choice.deck.four_colour"), value="four-colour"),
                 app_commands.Choice(name=lstr("choice.deck.two_colour"), value="two-colour")]
_PANEL_CHOICES = [app_commands.Choice(name=lstr("choice.panel.dm"), value="dm"),
                  app_commands.Choice(name=lstr("choice.panel.ephemeral"), value="ephemeral")]
_USER_LANGUAGE_CHOICES = [app_commands.Choice(name=lstr("choice.language.auto"), value="auto"),
                          *LANGUAGE_CHOICES]


class Settings(Feature):
    """A person's settings and the server's language."""

    @app_commands.command(name="settings", description=lstr("cmd.settings.desc"))
    @app_commands.describe(deck=lstr("cmd.settings.deck.desc"),
                           panel=lstr("cmd.settings.panel.desc"),
                           language=lstr("cmd.settings.language.desc"),
                           server_language=lstr("cmd.settings.server_language.desc"),
                           turn_ping=lstr("cmd.settings.turn_ping.desc"),
                           forced_plays=lstr("cmd.settings.forced_plays.desc"))
    @app_commands.choices(deck=_DECK_CHOICES, panel=_PANEL_CHOICES,
                          language=_USER_LANGUAGE_CHOICES, server_language=LANGUAGE_CHOICES)
    @guarded
    async def settings(self, interaction: discord.Interaction[Any], deck: str | None = None,
                       panel: str | None = None, language: str | None = None,
                       server_language: str | None = None, turn_ping: bool | None = None,
                       forced_plays: bool | None = None) -> None:
        """Your card colours, hand panel and language; the server's language (Manage Server)."""
        assert interaction.guild_id is not None
        await self.ack(interaction)  # before the database; a refusal in the reader's language
        store = self.app.store
        if server_language is not None and not manages_guild(interaction):
            raise UserFacingError("settings.need_manage_server")
        changed = any(v is not None for v in (deck, panel, language, server_language,
                                              turn_ping, forced_plays))
        changes: dict[str, Any] = {}
        if turn_ping is not None:
            changes["turn_ping"] = turn_ping
        if forced_plays is not None:
            changes["auto_forced"] = forced_plays
        if deck is not None:
            changes["four_colour"] = deck == "four-colour"
        if panel in ("dm", "ephemeral"):
            changes["panel"] = panel
        if language is not None:
            changes["language"] = None if language not in SUPPORTED else language
        user = (await store.set_user_settings(interaction.user.id, **changes) if changes
                else await store.user_settings(interaction.user.id))
        if server_language in SUPPORTED:
            guild = await store.set_guild_settings(
                interaction.guild_id, language=stored_server_language(server_language))
            await self.app.service.relocalize(interaction.guild_id,
                                              server_locale(guild.language, None))
        else:
            guild = await store.guild_settings(interaction.guild_id)
        public = server_locale(guild.language, interaction.guild_locale)
        locale = resolve_locale(user.language or interaction.locale)
        deck_key = "four_colour" if user.four_colour else "two_colour"
        lang_name = (t("choice.language.auto", locale) if user.language is None
                     else NATIVE_NAMES.get(user.language, user.language))
        lines = [t("settings.saved", locale)] if changed else []
        lines += [
            t("settings.title", locale),
            t("settings.deck", locale, value=t(f"choice.deck.{deck_key}", locale)),
            t("settings.panel", locale, value=t(f"choice.panel.{user.panel}", locale)),
            t("settings.language", locale, value=lang_name),
            t("settings.turn_ping", locale,
              value=t("option.yes" if user.turn_ping else "option.no", locale)),
            t("settings.forced_plays", locale,
              value=t("option.yes" if user.auto_forced else "option.no", locale)),
            t("settings.server_title", locale),
            t("settings.server_language", locale, value=NATIVE_NAMES[public]),
        ]
        await send(interaction, "\n".join(lines))


async def setup(app: App) -> None:
    await add_feature(app, Settings(app))
