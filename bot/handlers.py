"""What happens when someone clicks, selects, submits or types (components and commands).

One error path: `UserFacingError` (a catalog key) and `TractorError` (the engine's reason)
become an ephemeral reply; anything else is logged with the table id and answered politely.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands, ui

from bot.components import ComponentId
from bot.errors import UserFacingError
from bot.i18n import resolve_locale, t
from bot.logging import table_logger
from bot.panels import (
    Panel,
    build_panel,
    declaration_for,
    instances,
    selection_cards,
)
from bot.players import computer_action, quick_plays, shape_of, suggest_bury
from bot.storage import StorageError
from bot.table import TableDoc
from bot.text import (
    cards_text,
    options_text,
    ruling_text,
    seat_name,
    shape_word,
    team_names,
    trick_line,
)
from engine.actions import Action, Bury, Declare, Pass, Play
from engine.cards import Card, parse_cards
from engine.errors import InvalidNotation, TractorError
from engine.game import Phase
from engine.rules import RuleSet

if TYPE_CHECKING:
    from bot.client import TractorBot

__all__ = ["Handlers"]

SELECTION_VERBS = {"sel", "quick", "clear", "refresh"}
ACTION_VERBS = {"play", "bury", "decl", "pass"}
PANEL_VERBS = SELECTION_VERBS | ACTION_VERBS | {"hint", "suggest", "type"}
OPTION_CHOICES: dict[str, list[Any]] = {
    "turn_timer_s": [0, 30, 60, 90, 180, 300],
    "declare_window_s": [10, 15, 30, 60],
    "kitty_multiplier": ["twice_cards", "largest_unit", "flat_2"],
    "no_bid": ["kitty_top_card", "reveal_until_level"],
    "must_defend": ["none", "A", "5_10_K_A"],
}


LOCALE_KEY = "tractor.locale"


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language to answer this person in: their ``/tractor settings language``, else
    their Discord client's. `Handlers.reader_locale` looks the setting up once per
    interaction (every entry point calls it) and caches it in ``interaction.extras``."""
    cached = interaction.extras.get(LOCALE_KEY)
    return cached if isinstance(cached, str) else resolve_locale(interaction.locale)


async def reply(interaction: discord.Interaction[Any], content: str, *,
                ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer the interaction (or follow up if it was answered already)."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


def message_selection(message: discord.Message | None) -> list[str]:
    """The card instances selected in a panel message (its card selects' defaults)."""
    if message is None:
        return []
    chosen: list[str] = []
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None) or ""
            if ":sel:" not in custom_id:
                continue
            chosen += [option.value for option in getattr(child, "options", [])
                       if option.default]
    return chosen


def select_values(message: discord.Message | None, custom_id: str) -> list[str]:
    """All option values of one select of a message."""
    if message is None:
        return []
    for row in message.components:
        for child in getattr(row, "children", []):
            if getattr(child, "custom_id", None) == custom_id:
                return [option.value for option in getattr(child, "options", [])]
    return []


def pick_instances(pool: Sequence[Card], cards: Sequence[Card]) -> list[str]:
    """Instance values for `cards` (first free copies) among `pool`."""
    need = Counter(cards)
    out = []
    for value, card in instances(pool):
        if need[card]:
            need[card] -= 1
            out.append(value)
    return out


class CardsModal(ui.Modal):
    """``Type…``: cards as text (``AS AS KH``) for a play, a bury or a declaration."""

    def __init__(self, handlers: Handlers, cid: ComponentId, kind: str, locale: str) -> None:
        super().__init__(title=t(f"modal.{kind}.title", locale)[:45], timeout=900)
        self.handlers = handlers
        self.cid = cid
        self.kind = kind
        self.cards: ui.TextInput[CardsModal] = ui.TextInput(
            label=t("modal.cards.label", locale)[:45], placeholder="AS AS KH",
            max_length=200, required=True)
        self.add_item(self.cards)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await self.handlers.guard(
            interaction, self.handlers.typed(interaction, self.cid.table, self.kind,
                                             self.cards.value, step=self.cid.step),
            self.cid.table)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception,
                       item: ui.Item[Any] | None = None) -> None:
        await self.handlers.on_error(interaction, error, self.cid.table)


class Handlers:
    """The bot's interaction logic, shared by components (bot/components.py) and commands."""

    def __init__(self, bot: TractorBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Any:
        return self.bot.service

    async def reader_locale(self, interaction: discord.Interaction[Any]) -> str:
        """Look up (once) the language this interaction's user reads: their personal
        setting, else the interaction's locale. Every ephemeral reply uses it."""
        cached = interaction.extras.get(LOCALE_KEY)
        if isinstance(cached, str):
            return cached
        language: str | None = None
        store = getattr(self.bot, "store", None)
        if store is not None:
            try:
                language = (await store.user_settings(interaction.user.id)).language
            except StorageError as error:  # answer anyway, in the client's language
                table_logger(None).warning("user settings unavailable: %s", error)
        locale = resolve_locale(language or interaction.locale)
        interaction.extras[LOCALE_KEY] = locale
        return locale

    # ---- error path ----------------------------------------------------------------------

    async def on_error(self, interaction: discord.Interaction[Any], error: BaseException,
                       table_id: int | None = None) -> None:
        locale = await self.reader_locale(interaction)
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        if isinstance(error, UserFacingError):
            text = t(error.key, locale, **error.kwargs)
        elif isinstance(error, InvalidNotation):
            text = t("error.bad_cards", locale, reason=ruling_text(error, locale))
        elif isinstance(error, TractorError):
            text = t("error.not_allowed", locale, reason=ruling_text(error, locale))
        else:
            table_logger(table_id).error("interaction failed: %s", type(error).__name__,
                                         exc_info=(type(error), error, error.__traceback__))
            text = t("error.internal", locale)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, text)

    # ---- components --------------------------------------------------------------------

    async def guard(self, interaction: discord.Interaction[Any], work: Awaitable[None],
                    table_id: int | None = None) -> None:
        """Run `work`; a refusal (`UserFacingError`, `TractorError`) is answered ephemerally.
        Anything else is answered politely and re-raised, so it is logged as a bug."""
        try:
            await self.reader_locale(interaction)
            await work
        except (UserFacingError, TractorError) as error:
            await self.on_error(interaction, error, table_id)
        except Exception as error:
            await self.on_error(interaction, error, table_id)
            raise

    async def here(self, interaction: discord.Interaction[Any],
                   work: Callable[[int], Awaitable[None]]) -> None:
        """A command about this channel's table: `work(table_id)`, guarded."""
        async def run() -> None:
            table_id, _ = await self.table_here(interaction)
            await work(table_id)
        await self.guard(interaction, run())

    async def component(self, interaction: discord.Interaction[Any], cid: ComponentId,
                        values: list[str]) -> None:
        await self.guard(interaction, self._component(interaction, cid, values), cid.table)

    async def _component(self, interaction: discord.Interaction[Any], cid: ComponentId,
                         values: list[str]) -> None:
        verb = cid.verb
        if verb in PANEL_VERBS:
            await self._panel_verb(interaction, cid, values)
            return
        locale = locale_of(interaction)
        user = interaction.user
        if verb == "myhand":
            await self.show_hand(interaction, cid.table)
        elif verb == "last":
            await self.last_trick(interaction, cid.table)
        elif verb == "score":
            await self.score_sheet(interaction, cid.table)
        elif verb == "back":
            _, doc = await self.service.load(cid.table)
            seat = doc.seat_of(user.id)
            if seat is None or (cid.seat is not None and seat != cid.seat):
                owner = cid.seat if cid.seat is not None else 0
                raise UserFacingError("error.not_your_button",
                                      player=seat_name(doc, owner, locale))
            await self.back(interaction, cid.table)
        elif verb == "join":
            await self.join(interaction, cid.table, None)
        elif verb == "leave":
            await self.leave(interaction, cid.table)
        elif verb == "addbot":
            await self.add_bot(interaction, cid.table, None)
        elif verb == "start":
            await self.start(interaction, cid.table)
        elif verb == "rules":
            await self.rules(interaction, cid.table)
        elif verb == "opt":
            await self.set_option(interaction, cid, values)
        elif verb == "endyes":
            await self.end(interaction, cid.table, confirmed=True)
        elif verb == "endno":
            await interaction.response.edit_message(content=t("end.cancelled", locale),
                                                    view=None)

    async def _panel_verb(self, interaction: discord.Interaction[Any], cid: ComponentId,
                          values: list[str]) -> None:
        locale = locale_of(interaction)
        _, doc = await self.service.load(cid.table)
        seat = doc.seat_of(interaction.user.id)
        if seat is None:
            raise UserFacingError("error.not_at_table")
        if cid.seat is not None and seat != cid.seat:
            raise UserFacingError("error.not_your_button",
                                  player=seat_name(doc, cid.seat, locale))
        match = doc.get_match()
        if match is None:
            raise UserFacingError("error.no_match")
        key = (cid.table, seat)
        stale = cid.hand != match.hand_no or cid.step != doc.step
        verb = cid.verb
        view = match.view_for(seat)
        pool = _pool_of(view)
        if verb in SELECTION_VERBS:
            current = message_selection(interaction.message)
            if not current and interaction.message is None:
                current = self.service.selections.get(key, [])
            if stale and verb != "refresh":
                current = []
            if verb == "sel" and not stale:
                own = set(select_values(interaction.message, str(cid)))
                current = [v for v in current if v not in own] + list(values)
            elif verb == "quick" and not stale and values:
                try:
                    cards = parse_cards(values[0])
                except InvalidNotation:
                    cards = []
                current = pick_instances(pool, cards)
            elif verb == "clear":
                current = []
            self.service.selections[key] = current
            await self._edit_panel(interaction, doc, cid.table, seat, current, locale)
            self._track_panel(interaction, cid.table, seat)
            return
        if stale:
            await self._stale(interaction, doc, cid.table, seat, locale)
            self._track_panel(interaction, cid.table, seat)
            return
        if verb == "type":
            kind = {Phase.DECLARING: "declare", Phase.BURYING: "bury"}.get(match.phase, "play")
            await interaction.response.send_modal(CardsModal(self, cid, kind, locale))
            return
        if verb in ("hint", "suggest"):
            await interaction.response.defer()
            if verb == "suggest":
                cards = list(await asyncio.to_thread(suggest_bury, view))
                note = t("panel.suggested", locale, cards=cards_text(cards))
            else:
                action = await asyncio.to_thread(
                    computer_action, view, self.bot.config.computer_player, cid.table,
                    match.hand_no, doc.step, "hint")
                cards = list(action.cards) if isinstance(action, Play) else []
                note = t("panel.hint", locale, cards=cards_text(cards),
                         shape=shape_word(shape_of(cards, view.public.trump), locale))
            current = pick_instances(pool, cards)
            self.service.selections[key] = current
            panel = await self._panel(doc, cid.table, seat, current, locale)
            panel.content = f"{panel.content}\n{note}"[:2000]
            await interaction.edit_original_response(content=panel.content,
                                                     attachments=panel.files(),
                                                     view=panel.view)
            self._track_panel(interaction, cid.table, seat)
            return
        # Actions: play, bury, declare, pass.
        selected = message_selection(interaction.message) or self.service.selections.get(key, [])
        cards = selection_cards(pool, selected)
        make: Callable[[int], Action]
        if verb == "play":
            make = lambda s: Play(s, tuple(cards))  # noqa: E731
        elif verb == "bury":
            make = lambda s: Bury(s, tuple(cards))  # noqa: E731
        elif verb == "pass":
            make = Pass
        else:
            choice = declaration_for(view, cid.extra)
            if choice is None:
                raise UserFacingError("error.cannot_declare")
            make = lambda s: Declare(s, choice)  # noqa: E731
        await interaction.response.defer()
        try:
            tx = await self.service.act(cid.table, interaction.user.id, make, step=cid.step)
        except UserFacingError as error:
            if error.key == "error.stale":
                _, doc = await self.service.load(cid.table)
                await self._stale(interaction, doc, cid.table, seat, locale)
                self._track_panel(interaction, cid.table, seat)
                return
            raise
        if verb in ("play", "bury"):
            self.service.selections.pop(key, None)
        await self._after_action(interaction, tx.doc, cid.table, seat, locale)

    async def _after_action(self, interaction: discord.Interaction[Any], doc: TableDoc,
                            table_id: int, seat: int, locale: str) -> None:
        """Refresh the panel the player used: an ephemeral one through the publisher,
        which edits it from the latest table (so it never shows an older state than a
        refresh that raced it); DM panels are refreshed by the publisher anyway."""
        if self._track_panel(interaction, table_id, seat):
            self.bot.publisher.refresh_ephemeral(table_id, seat)

    def _track_panel(self, interaction: discord.Interaction[Any], table_id: int,
                     seat: int) -> bool:
        """Remember this interaction as the seat's latest ephemeral hand panel when its
        original response is that panel: the ``My hand`` reply, or an ephemeral panel
        message a component was used on (answered by an update or a deferred update)."""
        kind = interaction.response.type
        Kind = discord.InteractionResponseType
        message = interaction.message
        if kind in (Kind.message_update, Kind.deferred_message_update):
            if message is None or not message.flags.ephemeral:
                return False
        elif kind is not Kind.deferred_channel_message:
            return False
        publisher = getattr(self.bot, "publisher", None)
        if publisher is None:
            return False
        publisher.track_ephemeral(table_id, seat, interaction, locale_of(interaction))
        return True

    async def _panel(self, doc: TableDoc, table_id: int, seat: int, selected: list[str],
                     locale: str) -> Panel:
        entry = doc.seats[seat]
        four_colour = True
        if entry is not None and entry.user_id is not None:
            settings = await self.service.store.user_settings(entry.user_id)
            four_colour = settings.four_colour
            if settings.language:
                locale = resolve_locale(settings.language)
        return await build_panel(doc, table_id, seat, locale, selected,
                                 table_url=_table_url(doc), four_colour=four_colour)

    async def _edit_panel(self, interaction: discord.Interaction[Any], doc: TableDoc,
                          table_id: int, seat: int, selected: list[str], locale: str) -> None:
        panel = await self._panel(doc, table_id, seat, selected, locale)
        await interaction.response.edit_message(content=panel.content,
                                                attachments=panel.files(), view=panel.view)

    async def _stale(self, interaction: discord.Interaction[Any], doc: TableDoc,
                     table_id: int, seat: int, locale: str) -> None:
        """"This table has moved on": the panel is replaced by a fresh one."""
        self.service.selections.pop((table_id, seat), None)
        panel = await self._panel(doc, table_id, seat, [], locale)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=panel.content,
                                                     attachments=panel.files(),
                                                     view=panel.view)
        else:
            await interaction.response.edit_message(content=panel.content,
                                                    attachments=panel.files(),
                                                    view=panel.view)
        await interaction.followup.send(t("error.stale", locale), ephemeral=True)

    # ---- shared by buttons and commands ---------------------------------------------------

    async def table_here(self, interaction: discord.Interaction[Any]) -> tuple[int, TableDoc]:
        found = await self.service.table_in_channel(interaction.channel_id or 0)
        if found is None:
            raise UserFacingError("error.no_table_here")
        stored, doc = found
        return stored.id, doc

    async def show_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The ephemeral hand panel (fully playable on its own)."""
        locale = locale_of(interaction)
        _, doc = await self.service.load(table_id)
        seat = doc.seat_of(interaction.user.id)
        if seat is None:
            raise UserFacingError("error.not_at_table")
        if doc.get_match() is None:
            raise UserFacingError("error.no_match")
        await interaction.response.defer(ephemeral=True, thinking=True)
        selected = self.service.selections.get((table_id, seat), [])
        panel = await self._panel(doc, table_id, seat, selected, locale)
        kwargs: dict[str, Any] = {"files": panel.files()}
        if panel.view is not None:
            kwargs["view"] = panel.view
        await interaction.followup.send(panel.content, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none(),
                                        **kwargs)
        # The first follow-up replaced the "thinking…" original: the panel is the original
        # response, which the publisher edits as the game moves on.
        self._track_panel(interaction, table_id, seat)

    async def last_trick(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        locale = locale_of(interaction)
        _, doc = await self.service.load(table_id)
        match = doc.get_match()
        public = None if match is None else match.public_view()
        if public is None or public.last_trick is None:
            await reply(interaction, t("last.none", locale))
            return
        trick = public.last_trick
        await reply(interaction, t("last.text", locale, number=trick.number,
                                   plays=trick_line(doc, trick, locale, public.trump),
                                   player=seat_name(doc, trick.winner or 0, locale),
                                   points=trick.points))

    async def score_sheet(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        locale = locale_of(interaction)
        _, doc = await self.service.load(table_id)
        match = doc.get_match()
        if match is None:
            await reply(interaction, t("score.none", locale))
            return
        lines = [f"**{t('score.title', locale)}**",
                 t("score.teams", locale, team_a=team_names(doc, 0, locale),
                   level_a=str(match.levels[0]), team_b=team_names(doc, 1, locale),
                   level_b=str(match.levels[1]))]
        for result in doc.results[-15:]:
            starter = result.get("starter")
            lines.append(t("score.row", locale, number=result["hand_no"],
                           starter=seat_name(doc, starter, locale) if starter is not None
                           else "?",
                           points=result["opponent_points"],
                           levels="/".join(result["new_levels"])))
        await reply(interaction, "\n".join(lines)[:1990])

    async def back(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        locale = locale_of(interaction)
        was = await self.service.back(table_id, interaction.user.id)
        await reply(interaction, t("back.done" if was else "back.not_away", locale))

    async def join(self, interaction: discord.Interaction[Any], table_id: int,
                   seat: int | None) -> None:
        locale = locale_of(interaction)
        user = interaction.user
        name = getattr(user, "display_name", user.name)
        index = await self.service.join(table_id, user.id, name, locale, seat)
        await reply(interaction, t("join.done", locale, number=index + 1))
        await self._welcome_dm(interaction, table_id, index, locale)

    async def _welcome_dm(self, interaction: discord.Interaction[Any], table_id: int,
                          seat: int, locale: str) -> None:
        """DM the player now, so closed DMs are found (and explained) while they are here."""
        user = interaction.user
        channel = interaction.channel
        where = getattr(channel, "mention", "#?")
        try:
            dm = await user.create_dm()
            await dm.send(t("join.welcome_dm", locale, channel=where),
                          allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            await reply(interaction, t("error.dm_closed", locale))

            def closed(doc: TableDoc) -> None:
                entry = doc.seats[seat]
                if entry is not None and entry.user_id == user.id:
                    entry.dm_closed = True
                    entry.dm_notice_sent = True
            await self.service.update_meta(table_id, closed)
        except discord.HTTPException:
            pass
        else:
            def opened(doc: TableDoc) -> None:
                entry = doc.seats[seat]
                if entry is not None and entry.user_id == user.id:
                    entry.dm_channel = dm.id
            await self.service.update_meta(table_id, opened)

    async def leave(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.service.leave(table_id, interaction.user.id)
        await reply(interaction, t("leave.done", locale_of(interaction)))

    async def add_bot(self, interaction: discord.Interaction[Any], table_id: int,
                      seat: int | None) -> None:
        index = await self.service.add_bot(table_id, interaction.user.id, seat)
        await reply(interaction, t("addbot.done", locale_of(interaction), number=index + 1))

    async def start(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.start(table_id, interaction.user.id)
        await reply(interaction, t("start.done", locale_of(interaction)))

    async def default_rules(self, guild_id: int | None) -> RuleSet:
        """The options a new table in this server gets (the server's defaults, else R12's)."""
        if guild_id is None:
            return RuleSet()
        settings = await self.service.store.guild_settings(guild_id)
        try:
            return RuleSet.from_dict(dict(settings.table_options))
        except (TypeError, ValueError):
            return RuleSet()

    async def game_intro(self, interaction: discord.Interaction[Any], table_id: int | None
                         ) -> tuple[str, TableDoc | None]:
        """The game in brief and the options in force: this channel's table's, else those a
        new table here would get — in the reader's language."""
        locale = locale_of(interaction)
        doc: TableDoc | None = None
        if table_id is not None:
            _, doc = await self.service.load(table_id)
            title, rules = t("lobby.options_title", locale), doc.rules
        else:
            title = t("rules.default_options_title", locale)
            rules = await self.default_rules(interaction.guild_id)
        text = f"{t('rules.summary', locale)}\n\n{title}\n{options_text(rules, locale)}"
        return text, doc

    async def help(self, interaction: discord.Interaction[Any], table_id: int | None) -> None:
        """``/tractor help``: the game in brief, the commands and the options in force."""
        locale = locale_of(interaction)
        intro, _ = await self.game_intro(interaction, table_id)
        summary, _, options = intro.partition("\n\n")
        text = "\n\n".join([summary, t("help.text", locale), options])
        await reply(interaction, _fit(text))

    async def rules(self, interaction: discord.Interaction[Any], table_id: int | None) -> None:
        """The rules summary, the options in force and, for the table's creator before the
        start, selects to change them."""
        locale = locale_of(interaction)
        text, doc = await self.game_intro(interaction, table_id)
        view: ui.View | None = None
        if (doc is not None and table_id is not None and interaction.user.id == doc.creator_id
                and self.service.in_lobby(doc)):
            view = options_view(doc, table_id, locale)
            text += "\n" + t("rules.creator_can_change", locale)
        kwargs: dict[str, Any] = {} if view is None else {"view": view}
        await reply(interaction, _fit(text), **kwargs)

    async def set_option(self, interaction: discord.Interaction[Any], cid: ComponentId,
                         values: list[str]) -> None:
        locale = locale_of(interaction)
        name = cid.arg
        if name not in OPTION_CHOICES or not values:
            raise UserFacingError("error.bad_option")
        raw = values[0]
        value: Any = int(raw) if name.endswith("_s") else raw
        await self.service.set_option(cid.table, interaction.user.id, name, value)
        _, doc = await self.service.load(cid.table)
        text = (t("rules.options_changed", locale) + "\n" + options_text(doc.rules, locale))
        await interaction.response.edit_message(content=text[:1990],
                                                view=options_view(doc, cid.table, locale))

    async def end(self, interaction: discord.Interaction[Any], table_id: int, *,
                  confirmed: bool) -> None:
        locale = locale_of(interaction)
        _, doc = await self.service.load(table_id)
        perms = getattr(interaction, "permissions", None)
        can_manage = bool(perms and perms.manage_channels)
        if interaction.user.id != doc.creator_id and not can_manage:
            raise UserFacingError("error.end_not_allowed")
        running = not self.service.in_lobby(doc)
        if running and not confirmed:
            from bot.components import TractorButton

            match = doc.get_match()
            hand_no = 0 if match is None else match.hand_no
            view = ui.View(timeout=None)
            view.add_item(TractorButton(ComponentId(table_id, hand_no, doc.step, "endyes"),
                                        label=t("button.end_confirm", locale),
                                        style=discord.ButtonStyle.danger))
            view.add_item(TractorButton(ComponentId(table_id, hand_no, doc.step, "endno"),
                                        label=t("button.end_cancel", locale)))
            await reply(interaction, t("end.confirm", locale), view=view)
            return
        await self.service.end(table_id, interaction.user.id, can_manage=can_manage)
        if interaction.response.is_done():
            await reply(interaction, t("end.done", locale))
        elif confirmed:
            await interaction.response.edit_message(content=t("end.done", locale), view=None)
        else:
            await reply(interaction, t("end.done", locale))

    # ---- typed actions -----------------------------------------------------------------

    async def typed(self, interaction: discord.Interaction[Any], table_id: int, kind: str,
                    text: str, *, step: int | None = None) -> None:
        """``/tractor play|bury|declare cards:`` and the ``Type…`` modal."""
        locale = locale_of(interaction)
        try:
            cards = tuple(parse_cards(text))
        except InvalidNotation as error:
            raise UserFacingError("error.bad_cards",
                                  reason=ruling_text(error, locale)) from None
        if not cards:
            raise UserFacingError("error.no_cards")
        make: Callable[[int], Action]
        if kind == "play":
            make = lambda s: Play(s, cards)  # noqa: E731
        elif kind == "bury":
            make = lambda s: Bury(s, cards)  # noqa: E731
        else:
            make = lambda s: Declare(s, cards)  # noqa: E731
        await self.act(interaction, table_id, make, step=step,
                       done=t(f"{kind}.done", locale, cards=cards_text(cards)))

    async def act(self, interaction: discord.Interaction[Any], table_id: int,
                  make: Callable[[int], Action], *, step: int | None = None,
                  done: str) -> None:
        locale = locale_of(interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            tx = await self.service.act(table_id, interaction.user.id, make, step=step)
        except UserFacingError as error:
            if error.key == "error.stale":
                raise UserFacingError("error.stale_typed") from None
            raise
        seat = tx.doc.seat_of(interaction.user.id)
        if seat is not None:
            self.service.selections.pop((table_id, seat), None)
        from engine.events import ThrowFailed

        failed = [e for e in tx.events if isinstance(e, ThrowFailed)]
        if failed:
            done += "\n" + t("note.throw_failed", locale, player=seat_name(tx.doc, seat or 0,
                                                                             locale),
                             attempted=cards_text(failed[0].attempted),
                             forced=cards_text(failed[0].forced), penalty=0)
        await reply(interaction, done)

    async def pass_(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.act(interaction, table_id, Pass, done=t("pass.done", locale_of(interaction)))

    # ---- autocomplete --------------------------------------------------------------------

    async def choices(self, interaction: discord.Interaction[Any], kind: str,
                      current: str) -> list[app_commands.Choice[str]]:
        """Legal choices for this user right now; the first is the recommended default."""
        locale = await self.reader_locale(interaction)
        found = await self.service.table_in_channel(interaction.channel_id or 0)
        if found is None:
            return []
        _, doc = found
        seat = doc.seat_of(interaction.user.id)
        match = doc.get_match()
        if seat is None or match is None:
            return []
        view = match.view_for(seat)
        trump = view.public.trump
        options: list[tuple[str, str]] = []
        if kind == "play":
            plays = await asyncio.to_thread(quick_plays, view)
            for play in plays:
                name = f"{'★ ' if play.recommended else ''}{cards_text(play.cards)} — " \
                       f"{shape_word(shape_of(play.cards, trump), locale)}"
                options.append((name, " ".join(str(c) for c in play.cards)))
        elif kind == "declare":
            for option in view.legal_declarations:
                options.append((cards_text(option), " ".join(str(c) for c in option)))
        elif kind == "bury" and view.public.phase is Phase.BURYING and view.to_move:
            cards = await asyncio.to_thread(suggest_bury, view)
            options.append((t("bury.suggested_choice", locale, cards=cards_text(cards)),
                            " ".join(str(c) for c in cards)))
        needle = current.strip().upper()
        if needle:
            filtered = [o for o in options if o[1].upper().startswith(needle)
                        or needle in o[1].upper()]
            options = filtered or options
        return [app_commands.Choice(name=name[:100], value=value[:100])
                for name, value in options[:25]]


def options_view(doc: TableDoc, table_id: int, locale: str) -> ui.View:
    from bot.components import TractorSelect

    rules = doc.rules.to_dict()
    view = ui.View(timeout=None)
    for row, (name, values) in enumerate(OPTION_CHOICES.items()):
        options = []
        for value in values:
            label = _option_label(name, value, locale)
            options.append(discord.SelectOption(label=label[:100], value=str(value),
                                                default=rules.get(name) == value))
        view.add_item(TractorSelect(ComponentId(table_id, 0, doc.step, "opt", name),
                                    options=options,
                                    placeholder=t(f"option.{name}.name", locale), row=row))
    return view


def _option_label(name: str, value: Any, locale: str) -> str:
    if name.endswith("_s"):
        if value == 0:
            return t("option.off", locale)
        return t("option.seconds", locale, seconds=value)
    return t(f"choice.{name}.{str(value).lower()}", locale)


def _pool_of(view: Any) -> list[Card]:
    from bot.panels import _pool

    return _pool(view)


def _fit(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _table_url(doc: TableDoc) -> str | None:
    if doc.table_message is None:
        return None
    return f"https://discord.com/channels/{doc.guild_id}/{doc.channel_id}/{doc.table_message}"
