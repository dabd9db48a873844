"""Server administration (issue 13 "Server defaults and seasons"): ``/tractor defaults``
(this server's default table options and language; new tables start from them) and
``/tractor season new|list``. Changing anything needs Manage Server; viewing does not.

The options come from THE registry (`bot.core.options.OPTIONS`): the ``option`` choices are its
names, ``value`` autocompletes that option's values, and the engine's `RuleSet` validates
(the same path as ``/tractor new``, `bot.core.options.options_from`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import UserFacingError
from bot.core.options import OPTIONS, Option, options_from, options_text, parse_value
from bot.features import App, Feature, add_feature, guarded
from bot.i18n import NATIVE_NAMES, lstr, server_locale, stored_server_language, t
from bot.storage import GuildSettings, Season
from bot.ui.access import manages_guild
from bot.ui.choices import LANGUAGE_CHOICES
from bot.ui.replies import reader_locale, send

__all__ = ["Admin", "parse_typed"]

ALL = "all"
OPTION_CHOICES = [app_commands.Choice(name=lstr(f"option.{o.name}.name"), value=o.name)
                  for o in OPTIONS.values()]
RESET_CHOICES = [app_commands.Choice(name=lstr("choice.defaults.all"), value=ALL),
                 *OPTION_CHOICES]
TRUE_WORDS = {"true", "yes", "on", "1"}
FALSE_WORDS = {"false", "no", "off", "0"}


def parse_typed(option: Option, raw: str) -> Any:
    """A value typed (or autocompleted) for `option`: one of its listed values, a whole
    number of seconds or points, yes/no (`UserFacingError` ``error.bad_option``)."""
    text = raw.strip().lower()
    if option.kind in ("seconds", "number"):
        if not text.lstrip("-").isdigit() or len(text) > 6:
            raise UserFacingError("error.bad_option")
        return int(text)
    if option.kind == "bool":
        if text in TRUE_WORDS or text in FALSE_WORDS:
            return text in TRUE_WORDS
        raise UserFacingError("error.bad_option")
    return parse_value(option, raw.strip())


def validated(defaults: Mapping[str, Any], option: Option, value: Any) -> Any:
    """`value` for `option` as a new table would get it on top of the server's `defaults`
    (the engine validates: ``error.bad_option``; a turn timer under 15 s becomes 15 s)."""
    return options_from(defaults, {option.name: value})[option.name]


def season_text(season: Season, locale: str) -> str:
    """``Season 2 “Spring”``: a season as players read it."""
    if season.name:
        return t("season.named", locale, number=season.number,
                 name=discord.utils.escape_markdown(season.name))
    return t("season.number", locale, number=season.number)


class Admin(Feature):
    """Server defaults and seasons."""

    subgroup = "season"
    grouped = ("new", "list")

    # ---- /tractor defaults -----------------------------------------------------------

    @app_commands.command(name="defaults", description=lstr("cmd.defaults.desc"))
    @app_commands.describe(option=lstr("cmd.defaults.option.desc"),
                           value=lstr("cmd.defaults.value.desc"),
                           reset=lstr("cmd.defaults.reset.desc"),
                           language=lstr("cmd.defaults.language.desc"))
    @app_commands.choices(option=OPTION_CHOICES, reset=RESET_CHOICES,
                          language=LANGUAGE_CHOICES)
    @guarded
    async def defaults(self, interaction: discord.Interaction[Any], option: str | None = None,
                       value: app_commands.Range[str, 1, 40] | None = None,
                       reset: str | None = None, language: str | None = None) -> None:
        """View this server's defaults for new tables; set them (Manage Server)."""
        locale = await self.ack(interaction)
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        store = self.app.store
        changing = any(v is not None for v in (option, value, reset, language))
        if changing and not manages_guild(interaction):
            raise UserFacingError("error.need_manage_server")
        if (option is None) != (value is None):
            raise UserFacingError("error.defaults_pair")
        settings = await store.guild_settings(guild_id)
        update: dict[str, Any] = {}
        if option is not None and value is not None:
            chosen = OPTIONS.get(option)
            if chosen is None:
                raise UserFacingError("error.bad_option")
            update[chosen.name] = validated(settings.table_options, chosen,
                                            parse_typed(chosen, value))
        if reset is not None and reset != ALL and reset not in OPTIONS:
            raise UserFacingError("error.bad_option")
        if changing:
            changes: dict[str, Any] = {}
            if reset == ALL:
                changes["table_options"] = {}
            elif reset is not None:
                changes["reset_options"] = [reset]
            if update:
                changes["update_options"] = update
            if language is not None:
                changes["language"] = stored_server_language(language)
            settings = await store.set_guild_settings(guild_id, **changes)
            if language is not None:
                await self.app.service.relocalize(guild_id, server_locale(settings.language,
                                                                          None))
        await send(interaction, defaults_text(settings, interaction, locale, changing))

    @defaults.autocomplete("value")
    async def _value_choices(self, interaction: discord.Interaction[Any],
                             current: str) -> list[app_commands.Choice[str]]:
        """The chosen option's listed values, labelled in the reader's language."""
        option = OPTIONS.get(str(getattr(interaction.namespace, "option", "") or ""))
        if option is None:
            return []
        locale = await reader_locale(interaction, self.app.store)
        typed = current.strip().lower()
        out = []
        for choice in option.choices:
            label = option.label(choice, locale)
            if typed and typed not in label.lower() and typed not in option.encode(choice):
                continue
            out.append(app_commands.Choice(name=label[:100], value=option.encode(choice)))
        return out[:25]

    # ---- /tractor season new|list ----------------------------------------------------

    @app_commands.command(name="new", description=lstr("cmd.season.new.desc"))
    @app_commands.describe(name=lstr("cmd.season.new.name.desc"))
    @guarded
    async def season_new(self, interaction: discord.Interaction[Any],
                         name: app_commands.Range[str, 1, 40] | None = None
                         ) -> None:
        """Close the current season and start the next one (Manage Server)."""
        locale = await self.ack(interaction)
        assert interaction.guild_id is not None
        if not manages_guild(interaction):
            raise UserFacingError("error.need_manage_server")
        store = self.app.store
        old = await store.current_season(interaction.guild_id)
        new = await store.start_season(interaction.guild_id, name=(name or "").strip() or None)
        await send(interaction, t("season.started", locale, old=season_text(old, locale),
                                  new=season_text(new, locale), number=old.number))
        public = server_locale((await store.guild_settings(interaction.guild_id)).language,
                               interaction.guild_locale)
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            with contextlib.suppress(discord.HTTPException):
                await channel.send(t("season.announce", public, old=season_text(old, public),
                                     new=season_text(new, public), number=old.number),
                                   allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="list", description=lstr("cmd.season.list.desc"))
    @guarded
    async def season_list(self, interaction: discord.Interaction[Any]) -> None:
        """This server's seasons, the current one last."""
        locale = await self.ack(interaction)
        assert interaction.guild_id is not None
        store = self.app.store
        seasons = await store.seasons(interaction.guild_id) or [
            await store.current_season(interaction.guild_id)]
        lines = [t("season.list_title", locale)]
        for season in seasons:
            start = "—" if season.started_at is None else f"<t:{int(season.started_at)}:d>"
            end = (t("season.current", locale) if season.ended_at is None
                   else f"<t:{int(season.ended_at)}:d>")
            lines.append(t("season.list_line", locale, season=season_text(season, locale),
                           start=start, end=end))
        await send(interaction, "\n".join(lines))


def defaults_text(settings: GuildSettings, interaction: discord.Interaction[Any],
                  locale: str, saved: bool) -> str:
    """The server's defaults as the reader sees them."""
    rules = options_from(settings.table_options, {})
    public = server_locale(settings.language, interaction.guild_locale)
    lines = [t("settings.saved", locale)] if saved else []
    lines += [t("defaults.title", locale), options_text(rules, locale),
              t("settings.server_language", locale, value=NATIVE_NAMES[public]),
              "", t("defaults.how", locale)]
    return "\n".join(lines)


async def setup(app: App) -> None:
    await add_feature(app, Admin(app))
