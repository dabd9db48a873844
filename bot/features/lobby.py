"""The lobby: ``/tractor new``, ``join``, ``leave``, ``addbot``, ``start``, ``end``,
``table``, ``rules`` and ``help``, the table message's lobby buttons, the options selects
and the end confirmation."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands, ui

from bot.core.errors import UserFacingError
from bot.core.options import (
    OPTIONS,
    Option,
    house_rules_line,
    option_values,
    options_from,
    options_text,
    parse_value,
    shape_mode,
)
from bot.core.table import TableDoc
from bot.features import ALIAS_KEY, App, Feature, add_feature, guarded
from bot.i18n import lstr, server_locale, t
from bot.present.looks import look
from bot.ui.access import manages_channels
from bot.ui.choices import LEVEL_CHOICES, SEAT_CHOICES
from bot.ui.components import button, select
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import edit_clicked, locale_of, pages, send
from bot.ui.seat_answers import SeatAnswers
from engine.variant import find_variant

OPTION_ROWS = 4
"""Option selects per page of the options message (the fifth row holds ◀ ▶)."""


def command_choices(option: Option) -> list[app_commands.Choice[str]]:
    """A choice option's values as ``/tractor new`` choices (names from the catalog)."""
    return [app_commands.Choice(name=lstr(option.choice_key(v)), value=v)
            for v in option.choices]


def _page_ok(text: str) -> bool:
    return text.isdigit() and len(text) <= 2


class Lobby(Feature):
    """Table lifecycle: opening, seating, options, starting and ending."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.seats = SeatAnswers(app.service)
        add = app.router.add
        for verb, handler in (("join", self._join_button), ("leave", self._leave_button),
                              ("addbot", self._addbot_button), ("start", self._start_button),
                              ("rules", self._rules_button)):
            add(VerbSpec(verb, "table"), handler, ack="reply")
        add(VerbSpec("opt", "private", select=True,
                     extra=lambda name: name in OPTIONS), self._option_select)
        add(VerbSpec("optpage", "private", extra=_page_ok), self._option_page)
        add(VerbSpec("endyes", "private"), self._end_yes)
        add(VerbSpec("endno", "private"), self._end_no)

    # ---- /tractor new ----------------------------------------------------------------

    @app_commands.command(name="new", description=lstr("cmd.new.desc"))
    @app_commands.describe(**{o.command: lstr(f"cmd.new.{o.command}.desc")
                              for o in OPTIONS.values() if o.command})
    @app_commands.choices(**{o.command: command_choices(o) for o in OPTIONS.values()
                             if o.command and o.kind == "choice"})
    @guarded
    async def new(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Range[int, 0, 600] | None = None,
        declare_window: app_commands.Range[int, 5, 120] | None = None,
        kitty_multiplier: str | None = None,
        no_bid: str | None = None,
        must_defend: str | None = None,
        match_end: str | None = None,
        no_trump: bool | None = None,
        throw_penalty: app_commands.Range[int, 0, 50] | None = None,
        follow: str | None = None,
        throw_ruff: str | None = None,
        level_scoring: str | None = None,
        fixed_trump: str | None = None,
        take_backs: bool | None = None,
        unseen_count: bool | None = None,
        ready_timeout: app_commands.Range[int, 0, 600] | None = None,
        mode: str | None = None,
        players: app_commands.Range[int, 4, 8] | None = None,
        decks: app_commands.Range[int, 2, 4] | None = None,
    ) -> None:
        """Open a table in this channel (one per channel), with the table options."""
        mode = mode or shape_mode(players, decks)
        # The options given: the parameters above, each an option's command (stated once).
        given = {OPTIONS_BY_COMMAND[name].name: value for name, value in locals().items()
                 if name in OPTIONS_BY_COMMAND and value is not None}
        reader = await self.ack(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        store = self.app.store
        settings = await store.guild_settings(interaction.guild_id)
        options = options_from(settings.table_options, given)
        locale = server_locale(settings.language, interaction.guild_locale)
        user = interaction.user
        name = getattr(user, "display_name", user.name)
        await self.app.service.open_table(interaction.guild_id, interaction.channel_id,
                                          user.id, name, locale, options,
                                          player_locale=reader)
        await send(interaction, t("new.done", reader))

    # ---- seats ---------------------------------------------------------------------

    @app_commands.command(name="join", description=lstr("cmd.join.desc"))
    @app_commands.describe(seat=lstr("cmd.join.seats.desc"))
    @app_commands.choices(seat=SEAT_CHOICES)
    @guarded
    async def join(self, interaction: discord.Interaction[Any],
                   seat: int | None = None) -> None:
        """Take a seat at this channel's table (a computer's seat too, before the start)."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.seats.join(interaction, table_id, None if seat is None else seat - 1)

    async def _join_button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                           values: list[str]) -> None:
        await self.seats.join(interaction, cid.table, None)

    @app_commands.command(name="leave", description=lstr("cmd.leave.desc"))
    @guarded
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave your seat (during a match a computer player takes it over)."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self._leave(interaction, table_id)

    async def _leave_button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                            values: list[str]) -> None:
        await self._leave(interaction, cid.table)

    async def _leave(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.seats.seating.leave(table_id, interaction.user.id)
        await send(interaction, t("leave.done", locale_of(interaction)))

    @app_commands.command(name="addbot", description=lstr("cmd.addbot.desc"))
    @app_commands.describe(seat=lstr("cmd.addbot.seats.desc"), level=lstr("cmd.addbot.level.desc"))
    # One decorator per choice type: discord.py types choices() with a single ChoiceT.
    @app_commands.choices(seat=SEAT_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    @guarded
    async def addbot(self, interaction: discord.Interaction[Any],
                     seat: int | None = None, level: str | None = None) -> None:
        """Seat a computer player (the first empty seat unless you pick one), at a level."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.seats.add_bot(interaction, table_id, None if seat is None else seat - 1, level)

    async def _addbot_button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                             values: list[str]) -> None:
        await self.seats.add_bot(interaction, cid.table, None, None)

    # ---- start and end -------------------------------------------------------------

    @app_commands.command(name="start", description=lstr("cmd.start.seats.desc"))
    @guarded
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start the match (every seat filled)."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self._start(interaction, table_id)

    async def _start_button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                            values: list[str]) -> None:
        await self._start(interaction, cid.table)

    async def _start(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.app.service.start(table_id, interaction.user.id)
        done = "start.done" if self.app.config.hands_by_dm else "start.done_local"
        await send(interaction, t(done, locale_of(interaction)))

    @app_commands.command(name="end", description=lstr("cmd.end.desc"))
    @guarded
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table (its creator or Manage Channels; a running match asks first)."""
        locale = await self.ack(interaction)
        table_id, doc = await self.here(interaction)
        can_manage = self._can_manage(interaction)
        if interaction.user.id != doc.creator_id and not can_manage:
            raise UserFacingError("error.end_not_allowed")
        if not doc.in_lobby:
            match = doc.get_match()
            hand_no = 0 if match is None else match.hand_no
            view = ui.View(timeout=None)
            view.add_item(button(ComponentId(table_id, hand_no, doc.step, "endyes"),
                                 label=t("button.end_confirm", locale),
                                 style=discord.ButtonStyle.danger))
            view.add_item(button(ComponentId(table_id, hand_no, doc.step, "endno"),
                                 label=t("button.end_cancel", locale)))
            await send(interaction, t("end.confirm", locale), view=view)
            return
        await self.app.service.end(table_id, interaction.user.id, can_manage=can_manage)
        await send(interaction, t("end.done", locale))

    @staticmethod
    def _can_manage(interaction: discord.Interaction[Any]) -> bool:
        return manages_channels(interaction)

    async def _end_yes(self, interaction: discord.Interaction[Any], cid: ComponentId,
                       values: list[str]) -> None:
        await self.app.service.end(cid.table, interaction.user.id,
                                   can_manage=self._can_manage(interaction))
        await edit_clicked(interaction, content=t("end.done",
                                                           locale_of(interaction)), view=None)

    async def _end_no(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        await edit_clicked(interaction, content=t("end.cancelled",
                                                           locale_of(interaction)), view=None)

    # ---- /tractor table, rules, help --------------------------------------------------

    @app_commands.command(name="table", description=lstr("cmd.table.desc"))
    @guarded
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table message again at the bottom of the channel."""
        locale = await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.app.service.repost(table_id)
        await send(interaction, t("table.reposted", locale))

    async def default_options(self, guild_id: int | None) -> dict[str, Any]:
        """The options a new table in this server gets (the server's defaults, else R12's)."""
        if guild_id is None:
            return options_from({}, {})
        settings = await self.app.store.guild_settings(guild_id)
        return options_from(settings.table_options, {})

    async def game_intro(self, interaction: discord.Interaction[Any]
                         ) -> tuple[str, TableDoc | None, int | None]:
        """The game in brief and the options in force: this channel's table's, else those a
        new table here would get — in the reader's language."""
        locale = locale_of(interaction)
        found = await self.app.service.table_in_channel(interaction.channel_id or 0)
        if found is not None:
            stored, doc = found
            title, values = t("lobby.options_title", locale), doc.options
            table_id: int | None = stored.id
        else:
            doc, table_id = None, None
            title = t("rules.default_options_title", locale)
            values = await self.default_options(interaction.guild_id)
        summary = t(look(find_variant(option_values(values)["mode"])).rules_summary, locale)
        text = (f"{summary}\n{self.rule_book_line(locale)}\n\n{title}\n"
                f"{options_text(values, locale)}\n{house_rules_line(values, locale, always=True)}")
        return text, doc, table_id

    def rule_book_line(self, locale: str) -> str:
        """Where the full rule book (docs/rules.md, R1–R12 and the house rules) is read."""
        url = self.app.config.rules_url
        return t("rules.book_link", locale, url=url) if url else t("rules.book_file", locale)

    @app_commands.command(name="rules", description=lstr("cmd.rules.desc"))
    @guarded
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """How to play, and this table's options (its creator may change them before the
        start)."""
        await self.ack(interaction)
        await self._rules(interaction)

    async def _rules_button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                            values: list[str]) -> None:
        await self._rules(interaction)

    async def _rules(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        text, doc, table_id = await self.game_intro(interaction)
        kwargs: dict[str, Any] = {}
        if (doc is not None and table_id is not None and interaction.user.id == doc.creator_id
                and doc.in_lobby):
            kwargs["view"] = options_view(doc, table_id, locale, 0)
            text += "\n" + t("rules.creator_can_change", locale)
        await send(interaction, text, **kwargs)

    @app_commands.command(name="help", description=lstr("cmd.help.desc"))
    @guarded
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The game in brief, the commands, and the options of this channel's table."""
        locale = await self.ack(interaction)
        intro, _, _ = await self.game_intro(interaction)
        summary, _, options = intro.partition("\n\n")
        for chunk in pages(f"{summary}\n\n{options}".split("\n")):
            await send(interaction, chunk)
        commands = commands_text(self.app.group, locale).split("\n")
        for chunk in pages([t("help.commands", locale), "", *commands]):
            await send(interaction, chunk)

    # ---- the options selects -----------------------------------------------------------

    async def _option_select(self, interaction: discord.Interaction[Any], cid: ComponentId,
                             values: list[str]) -> None:
        locale = locale_of(interaction)
        option = OPTIONS[cid.arg]
        if len(values) != 1:
            raise UserFacingError("error.bad_option")
        value = parse_value(option, values[0])
        await self.app.service.set_option(cid.table, interaction.user.id, option.name, value)
        _, doc = await self.app.service.load(cid.table)
        text = t("rules.options_changed", locale) + "\n" + options_text(doc.options, locale)
        page = option_page(option)
        await edit_clicked(interaction, content=text,
                                                 view=options_view(doc, cid.table, locale,
                                                                   page))

    async def _option_page(self, interaction: discord.Interaction[Any], cid: ComponentId,
                           values: list[str]) -> None:
        locale = locale_of(interaction)
        _, doc = await self.app.service.load(cid.table)
        page = int(cid.arg)
        await edit_clicked(interaction, view=options_view(doc, cid.table, locale,
                                                                   page))


OPTIONS_BY_COMMAND: dict[str, Option] = {o.command: o for o in OPTIONS.values() if o.command}


def selectable() -> list[Option]:
    """The options the lobby's selects offer (those with a list of choices)."""
    return [o for o in OPTIONS.values() if o.choices]


def option_page(option: Option) -> int:
    return selectable().index(option) // OPTION_ROWS


def options_view(doc: TableDoc, table_id: int, locale: str, page: int) -> ui.View:
    """The options selects, `OPTION_ROWS` per page, with ◀ ▶ when there are more."""
    options = selectable()
    pages = max(1, -(-len(options) // OPTION_ROWS))
    page = min(max(page, 0), pages - 1)
    current = option_values(doc.options)
    view = ui.View(timeout=None)
    for row, option in enumerate(options[page * OPTION_ROWS:(page + 1) * OPTION_ROWS]):
        # Each choice reads "Title: value", so the one shown (the current one) names both
        # the option and its value; a current value the select does not offer is in its
        # placeholder, the same way (issue 31 item 6).
        choices = [discord.SelectOption(label=option.line(value, locale)[:100],
                                        value=option.encode(value),
                                        default=current.get(option.name) == value)
                   for value in option.choices]
        view.add_item(select(ComponentId(table_id, 0, doc.step, "opt", option.name),
                             options=choices, row=row,
                             placeholder=option.line(current[option.name], locale)[:150]))
    for target in range(pages):  # one button per other page: "◀ 1/2", "2/2 ▶"
        if target != page:
            label = f"◀ {target + 1}/{pages}" if target < page else f"{target + 1}/{pages} ▶"
            view.add_item(button(ComponentId(table_id, 0, doc.step, "optpage", str(target)),
                                 label=label, row=4))
    return view


def commands_text(group: app_commands.Group, locale: str) -> str:
    """One line per registered ``/tractor`` subcommand, with its description in `locale`
    (generated from the commands, so help never leaves one out)."""
    lines = []
    for command in sorted(group.walk_commands(), key=lambda c: c.qualified_name):
        if isinstance(command, app_commands.Group) or command.extras.get(ALIAS_KEY):
            continue
        description = command.description
        key = getattr(command._locale_description, "extras", {}).get("key") \
            if getattr(command, "_locale_description", None) is not None else None
        if isinstance(key, str):
            description = t(key, locale)
        lines.append(f"`/{command.qualified_name}` — {description}")
    return "\n".join(lines)


async def setup(app: App) -> None:
    await add_feature(app, Lobby(app))
