"""Play: the hand panel's verbs (card selects, Quick plays, Play, Bury, declaring, Hint,
Suggest, Type…), the table message's in-game buttons (My hand, Last trick, Score sheet,
I'm back) and the typed commands ``/tractor hand``, ``play``, ``declare``, ``pass``,
``bury``, ``back`` with their autocomplete."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands, ui

from bot.core.errors import UserFacingError
from bot.core.table import TableDoc
from bot.features import App, Feature, add_feature, guarded
from bot.i18n import lstr, t
from bot.present.text import (
    cards_text,
    levels_line,
    plain,
    ruling_text,
    seat_name,
    shape_word,
    team_names,
    trick_line,
)
from bot.render.sides import two_teams
from bot.services.players import computer_action, quick_plays, suggest_bury
from bot.ui.edits import edit_original_quietly
from bot.ui.hand import HandPanels, has_verb, message_selection, select_values
from bot.ui.ids import ComponentId, VerbSpec, make_id
from bot.ui.panels import DECLARE_SUITS, declaration_for
from bot.ui.replies import edit_clicked, fail, fit, locale_of, quote, reader_locale, send
from bot.ui.selection import pick_instances, pool, selection_cards
from engine.actions import Action, Bury, Declare, Pass, Play
from engine.cards import Card, parse_cards
from engine.entry import TypedKind, parse_action
from engine.errors import InvalidNotation
from engine.events import ThrowFailed
from engine.game import Match, Phase
from engine.units import shape_of
from engine.views import PlayerView

ACTION_VERBS = ("play", "bury", "decl", "pass")
MAX_TYPED = 300
"""Characters of typed cards looked at (a hand holds at most 33 cards)."""


def _group_ok(text: str) -> bool:
    return text.isdigit() and len(text) == 1


def _suit_ok(text: str) -> bool:
    return text in dict(DECLARE_SUITS)


TYPED_KINDS = ("play", "bury", "declare")
"""What the ``Type…`` modal's cards are for (the submission's id says which)."""


def _typed_ok(text: str) -> bool:
    return text in TYPED_KINDS


TYPED = VerbSpec("typed", "panel", seat="required", extra=_typed_ok, opened_by="type")
"""The ``Type…`` modal's submission: ``tr:{table}:{hand}:{step}:typed:{seat}.{kind}``."""


def cards_modal(cid: ComponentId, kind: str, locale: str) -> ui.Modal:
    """``Type…``: cards as text (``AS AS KH``) for a play, a bury or a declaration. Its id
    is the submission's verb (``typed``, the opening button's table, hand, step and seat,
    and the kind), so any process of the bot can route its submission (`PlayFeature._typed`)
    — the one that received it, or the table's owner it is forwarded to. Kept nowhere: no
    view store entry, nothing lost by a restart."""
    modal = ui.Modal(title=t(f"modal.{kind}.title", locale)[:45], timeout=None,
                     custom_id=make_id(cid.table, cid.hand, cid.step, TYPED.name,
                                       f"{cid.seat}.{kind}"))
    modal.add_item(ui.TextInput(label=t("modal.cards.label", locale)[:45],
                                placeholder="AS AS KH", max_length=200, required=True,
                                custom_id="cards"))
    modal.stop()  # finished: `send_modal` keeps no finished view (the router answers it)
    return modal


@dataclass(frozen=True, slots=True)
class _Click:
    """A hand panel click, loaded: its reader's locale, the table, the clicker's seat and
    view, and whether the panel shows an older step than the table's."""

    locale: str
    doc: TableDoc
    seat: int
    match: Match
    view: PlayerView
    stale: bool


def _declare(view: PlayerView, cards: tuple[Card, ...], extra: str) -> Callable[[int], Action]:
    choice = declaration_for(view, extra)
    if choice is None:
        raise UserFacingError("error.cannot_declare")
    return lambda seat: Declare(seat, choice)


_ACTIONS: dict[str, Callable[[PlayerView, tuple[Card, ...], str], Callable[[int], Action]]] = {
    "play": lambda view, cards, extra: lambda seat: Play(seat, cards),
    "bury": lambda view, cards, extra: lambda seat: Bury(seat, cards),
    "pass": lambda view, cards, extra: Pass,
    "decl": _declare,
}
"""A panel button's action, by verb (from the clicker's view, the picked cards and the
id's argument)."""


class PlayFeature(Feature, name="Play"):
    """Acting in a running hand."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.panels = HandPanels(app.store, app.publisher, app.selections)
        add = app.router.add
        # A card pick only redraws the clicked panel: the panel is the click's answer.
        for verb in ("clear", "refresh"):
            add(VerbSpec(verb, "panel", seat="required"), self._pick, ack="answer")
        add(VerbSpec("sel", "panel", select=True, seat="required", extra=_group_ok),
            self._pick, ack="answer")
        add(VerbSpec("quick", "panel", select=True, seat="required"), self._pick,
            ack="answer")
        for verb in ("hint", "suggest"):
            add(VerbSpec(verb, "panel", seat="required"), self._advice)
        for verb in ("play", "bury", "pass"):
            add(VerbSpec(verb, "panel", seat="required"), self._act)
        add(VerbSpec("decl", "panel", seat="required", extra=_suit_ok), self._act)
        add(VerbSpec("type", "panel", seat="required"), self._type, ack="modal")
        add(TYPED, self._typed, ack="reply")
        add(VerbSpec("myhand", "table"), self._my_hand, ack="reply")
        add(VerbSpec("last", "table"), self._last_trick, ack="reply")
        add(VerbSpec("score", "table"), self._score_sheet, ack="reply")
        add(VerbSpec("back", "table", seat="optional"), self._back_button, ack="reply")

    async def doc_for(self, interaction: discord.Interaction[Any], table_id: int) -> TableDoc:
        """The table, loaded once per interaction (the owner check keeps it)."""
        return await self.app.access.table(interaction, table_id)

    # ---- the hand panel --------------------------------------------------------------

    async def _type(self, interaction: discord.Interaction[Any], cid: ComponentId,
                    values: list[str]) -> None:
        """Opens the modal at once (a modal must be the first response)."""
        kind = "play"
        message = interaction.message
        if has_verb(message, "bury"):
            kind = "bury"
        elif has_verb(message, "decl"):
            kind = "declare"
        await interaction.response.send_modal(cards_modal(cid, kind, locale_of(interaction)))

    async def _typed(self, interaction: discord.Interaction[Any], cid: ComponentId,
                     values: list[str]) -> None:
        """The ``Type…`` modal's cards, at the step its panel showed (the seat checked)."""
        await self.typed(interaction, cid.table, cid.extra, values[0] if values else "",
                         step=cid.step)

    async def _clicked(self, interaction: discord.Interaction[Any],
                       cid: ComponentId) -> _Click:
        """The panel click's table, seat and view, loaded once (the owner check passed)."""
        doc = await self.doc_for(interaction, cid.table)
        seat = doc.seat_of(interaction.user.id)
        assert seat is not None  # the owner check
        match = doc.get_match()
        if match is None:
            raise UserFacingError("error.no_match")
        return _Click(locale_of(interaction), doc, seat, match, match.view_for(seat),
                      cid.hand != match.hand_no or cid.step != doc.step)

    async def _pick(self, interaction: discord.Interaction[Any], cid: ComponentId,
                    values: list[str]) -> None:
        """A card pick (`sel`, `quick`, `clear`, `refresh`): the clicked panel, redrawn."""
        click = await self._clicked(interaction, cid)
        current = message_selection(interaction.message)
        if click.stale and cid.verb != "refresh":
            current = []
        if cid.verb == "sel" and not click.stale:
            own = set(select_values(interaction.message, str(cid)))
            current = [v for v in current if v not in own] + list(values)
        elif cid.verb == "quick" and not click.stale and values:
            try:
                chosen = parse_cards(values[0])
            except InvalidNotation:
                chosen = []
            current = pick_instances(pool(click.view), chosen)
        elif cid.verb == "clear":
            current = []
        self.app.selections.set(cid.table, click.seat, current)
        await self.panels.edit(interaction, click.doc, cid.table, click.seat, current,
                               click.locale)
        self.panels.track(interaction, cid.table, click.seat)

    async def _stale(self, interaction: discord.Interaction[Any], cid: ComponentId,
                     click: _Click) -> None:
        await self.panels.stale(interaction, click.doc, cid.table, click.seat, click.locale)
        self.panels.track(interaction, cid.table, click.seat)

    async def _advice(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        """`hint` (the computer's play) or `suggest` (a bury): picked on the panel."""
        click = await self._clicked(interaction, cid)
        if click.stale:
            await self._stale(interaction, cid, click)
            return
        view, locale = click.view, click.locale
        if cid.verb == "suggest":
            chosen = list(await asyncio.to_thread(suggest_bury, view))
            note = t("panel.suggested", locale, cards=cards_text(chosen))
        else:
            action = await asyncio.to_thread(
                computer_action, view, self.app.config.computer_player, cid.table,
                click.match.hand_no, click.doc.step, "hint")
            chosen = list(action.cards) if isinstance(action, Play) else []
            note = t("panel.hint", locale, cards=cards_text(chosen),
                     shape=shape_word(shape_of(chosen, view.public.trump,
                                               leading=view.lead is None), locale))
        current = pick_instances(pool(view), chosen)
        self.app.selections.set(cid.table, click.seat, current)
        panel = await self.panels.panel(click.doc, cid.table, click.seat, current, locale)
        await edit_clicked(interaction, content=fit(f"{panel.content}\n{note}"),
                           picture=panel.picture, view=panel.view)
        self.panels.track(interaction, cid.table, click.seat)

    async def _act(self, interaction: discord.Interaction[Any], cid: ComponentId,
                   values: list[str]) -> None:
        """`play`, `bury`, `pass`, `decl`: the action, at the step the panel showed."""
        click = await self._clicked(interaction, cid)
        if click.stale:
            await self._stale(interaction, cid, click)
            return
        selected = (message_selection(interaction.message)
                    or self.app.selections.get(cid.table, click.seat))
        cards = tuple(selection_cards(pool(click.view), selected))
        make = _ACTIONS[cid.verb](click.view, cards, cid.extra)
        try:
            await self.app.service.act(cid.table, interaction.user.id, make, step=cid.step)
        except UserFacingError as error:
            if error.key != "error.stale":
                raise
            _, doc = await self.app.service.load(cid.table)
            await self._stale(interaction, cid, replace(click, doc=doc))
            return
        if cid.verb in ("play", "bury"):
            self.app.selections.clear(cid.table, click.seat)
        if self.panels.track(interaction, cid.table, click.seat):
            # An ephemeral panel is refreshed by the publisher from the latest table, so it
            # never shows an older state than a refresh that raced it.
            self.app.publisher.refresh_ephemeral(cid.table, click.seat)

    # ---- the table message's buttons ----------------------------------------------------

    async def _my_hand(self, interaction: discord.Interaction[Any], cid: ComponentId,
                       values: list[str]) -> None:
        await self.show_hand(interaction, cid.table)

    async def show_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The ephemeral hand panel (fully playable on its own)."""
        locale = locale_of(interaction)
        doc = await self.doc_for(interaction, table_id)
        seat = doc.seat_of(interaction.user.id)
        if seat is None:
            raise UserFacingError("error.not_at_table")
        if doc.get_match() is None:
            raise UserFacingError("error.no_match")
        panel = await self.panels.panel(doc, table_id, seat,
                                  self.app.selections.get(table_id, seat), locale)
        # The panel replaces the "thinking…" original response, which the publisher then
        # edits as the game moves on.
        await edit_original_quietly(interaction, content=panel.content, picture=panel.picture,
                                    view=panel.view,
                                    allowed_mentions=discord.AllowedMentions.none())
        self.panels.track(interaction, table_id, seat)

    async def _last_trick(self, interaction: discord.Interaction[Any], cid: ComponentId,
                          values: list[str]) -> None:
        locale = locale_of(interaction)
        doc = await self.doc_for(interaction, cid.table)
        match = doc.get_match()
        public = None if match is None else match.public_view()
        if public is None or public.last_trick is None:
            await send(interaction, t("last.none", locale))
            return
        trick = public.last_trick
        await send(interaction, t("last.text", locale, number=trick.number,
                                  plays=trick_line(doc, trick, locale, public.trump),
                                  player=seat_name(doc, trick.winner or 0, locale),
                                  points=trick.points))

    async def _score_sheet(self, interaction: discord.Interaction[Any], cid: ComponentId,
                           values: list[str]) -> None:
        locale = locale_of(interaction)
        doc = await self.doc_for(interaction, cid.table)
        match = doc.get_match()
        if match is None:
            await send(interaction, t("score.none", locale))
            return
        public = match.public_view()
        lines = [f"**{t('score.title', locale)}**",
                 levels_line(doc, public, locale) if not two_teams(public.variant, public.seats)
                 else t("score.teams", locale, team_a=team_names(doc, 0, locale),
                   level_a=str(match.levels[0]), team_b=team_names(doc, 1, locale),
                   level_b=str(match.levels[1]))]
        if doc.results:  # which level is whose in the rows' "2/3"
            sides = ([team_names(doc, team, locale) for team in (0, 1)]
                     if two_teams(public.variant, public.seats)
                     else [seat_name(doc, seat, locale) for seat
                           in public.variant.side_levels(range(public.seats))])
            lines.append(t("score.order", locale, names=" / ".join(sides)))
        for result in doc.results[-15:]:
            starter = result.get("starter")
            lines.append(t("score.row", locale, number=result["hand_no"],
                           starter=seat_name(doc, starter, locale) if starter is not None
                           else "?",
                           points=result["opponent_points"],
                           levels="/".join(result["new_levels"])))
        await send(interaction, "\n".join(lines))

    async def _back_button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                           values: list[str]) -> None:
        await self.back_(interaction, cid.table)

    async def back_(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        was = await self.app.service.back(table_id, interaction.user.id)
        await send(interaction, t("back.done" if was else "back.not_away",
                                  locale_of(interaction)))

    # ---- typed actions -----------------------------------------------------------------

    async def typed(self, interaction: discord.Interaction[Any], table_id: int, kind: str,
                    text: str, *, step: int | None = None) -> None:
        """``/tractor play|bury|declare cards:`` and the ``Type…`` modal."""
        locale = locale_of(interaction)
        typed_kind: TypedKind = "declare" if kind == "declare" else \
            "bury" if kind == "bury" else "play"
        try:
            action = parse_action(typed_kind, plain(text[:MAX_TYPED]), 0)
        except InvalidNotation as error:
            raise UserFacingError("error.bad_cards",
                                  reason=quote(ruling_text(error, locale), 300)) from None
        if not isinstance(action, (Declare, Bury, Play)):  # None, or a Pass
            raise UserFacingError("error.no_cards")
        shown: Declare | Bury | Play = action
        cards = shown.cards
        make: Callable[[int], Action] = lambda seat: replace(shown, seat=seat)  # noqa: E731
        await self.act(interaction, table_id, make, step=step,
                       done=t(f"{kind}.done", locale, cards=cards_text(cards)))

    async def act(self, interaction: discord.Interaction[Any], table_id: int,
                  make: Callable[[int], Action], *, step: int | None = None,
                  done: str) -> None:
        locale = locale_of(interaction)
        try:
            tx = await self.app.service.act(table_id, interaction.user.id, make, step=step)
        except UserFacingError as error:
            if error.key == "error.stale":
                raise UserFacingError("error.stale_typed") from None
            raise
        seat = tx.doc.seat_of(interaction.user.id)
        if seat is not None:
            self.app.selections.clear(table_id, seat)
        failed = [e for e in tx.events if isinstance(e, ThrowFailed)]
        if failed:
            done += "\n" + t("note.throw_failed", locale,
                             player=seat_name(tx.doc, seat or 0, locale),
                             attempted=cards_text(failed[0].attempted),
                             forced=cards_text(failed[0].forced), penalty=0)
        await send(interaction, done)

    # ---- commands ---------------------------------------------------------------------

    @app_commands.command(name="hand", description=lstr("cmd.hand.desc"))
    @guarded
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Your hand panel, here and only for you (works with DMs closed)."""
        await self.ack(interaction)
        table_id, doc = await self.here(interaction)
        self.app.access.keep(interaction, table_id, doc)
        await self.show_hand(interaction, table_id)

    @app_commands.command(name="play", description=lstr("cmd.play.desc"))
    @app_commands.describe(cards=lstr("cmd.play.cards.desc"))
    @guarded
    async def play(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Lead or follow with cards written like AS AS or 10H."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.typed(interaction, table_id, "play", cards)

    @play.autocomplete("cards")
    async def play_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        return await self.choices(interaction, "play", current)

    @app_commands.command(name="declare", description=lstr("cmd.declare.desc"))
    @app_commands.describe(cards=lstr("cmd.declare.cards.desc"))
    @guarded
    async def declare(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Declare trump while the cards are dealt: one or two level cards, or a joker pair."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.typed(interaction, table_id, "declare", cards)

    @declare.autocomplete("cards")
    async def declare_cards(self, interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[str]]:
        return await self.choices(interaction, "declare", current)

    @app_commands.command(name="pass", description=lstr("cmd.pass.desc"))
    @guarded
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        """Do not declare in this declaration window."""
        locale = await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.act(interaction, table_id, Pass, done=t("pass.done", locale))

    @app_commands.command(name="bury", description=lstr("cmd.bury.desc"))
    @app_commands.describe(cards=lstr("cmd.bury.cards.desc"))
    @guarded
    async def bury(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Bury 8 of your 33 cards as the new kitty (the starter only)."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.typed(interaction, table_id, "bury", cards)

    @bury.autocomplete("cards")
    async def bury_cards(self, interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
        return await self.choices(interaction, "bury", current)

    @app_commands.command(name="back", description=lstr("cmd.back.desc"))
    @guarded
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        """Take your seat back from the computer (after two missed turns)."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.back_(interaction, table_id)

    # ---- autocomplete --------------------------------------------------------------------

    async def choices(self, interaction: discord.Interaction[Any], kind: str,
                      current: str) -> list[app_commands.Choice[str]]:
        """Choices matching what is typed: the typed cards first when they parse (legal or
        not: Enter then plays exactly those, or gets the ruling), then the legal choices
        whose cards include every typed card (``9``, ``9d`` or ``K`` narrow them)."""
        try:
            return await self._choices(interaction, kind, current)
        except Exception as error:
            await fail(interaction, error)
            return []

    async def _choices(self, interaction: discord.Interaction[Any], kind: str,
                       current: str) -> list[app_commands.Choice[str]]:
        locale = await reader_locale(interaction, self.app.store)
        found = await self.app.service.table_in_channel(interaction.channel_id or 0)
        if found is None:
            return []
        _, doc = found
        seat = doc.seat_of(interaction.user.id)
        match = doc.get_match()
        if seat is None or match is None:
            return []
        view = match.view_for(seat)
        trump = view.public.trump
        options: list[tuple[str, tuple[Card, ...]]] = []
        if kind == "play":
            for play in await asyncio.to_thread(quick_plays, view):
                shape = shape_word(shape_of(play.cards, trump, leading=view.lead is None),
                                   locale)
                options.append((f"{'★ ' if play.recommended else ''}"
                                f"{cards_text(play.cards)} — {shape}", tuple(play.cards)))
        elif kind == "declare":
            for option in view.legal_declarations:
                options.append((cards_text(option), tuple(option)))
        elif kind == "bury" and view.public.phase is Phase.BURYING and view.to_move:
            cards = await asyncio.to_thread(suggest_bury, view)
            options.append((t("bury.suggested_choice", locale, cards=cards_text(cards)),
                            tuple(cards)))
        typed = plain(current.strip()[:MAX_TYPED])
        out: list[tuple[str, str]] = []
        if typed:
            options = [o for o in options if _matches(typed, o[1])]
            try:
                parsed = parse_cards(typed)
            except InvalidNotation:
                parsed = []
            if parsed:
                value = " ".join(str(c) for c in parsed)
                out.append((cards_text(parsed), value))
        for name, cards in options:
            value = " ".join(str(c) for c in cards)
            if all(value != v for _, v in out):
                out.append((name, value))
        return [app_commands.Choice(name=name[:100], value=value[:100])
                for name, value in out[:25] if len(value) <= 100]


def _matches(typed: str, cards: tuple[Card, ...]) -> bool:
    """Whether the choice `cards` holds what is typed: whole cards (any notation the parser
    reads, in any order, as a multiset) and a last partial token (a rank like ``9``/``K``/
    ``10``, or a card prefix) that some other card of the choice starts with."""
    tokens = typed.replace(",", " ").split()
    if not tokens:
        return True
    left = list(cards)
    for index, token in enumerate(tokens):
        try:
            whole = parse_cards(token)
        except InvalidNotation:
            whole = []
        if whole:
            for card in whole:
                if card not in left:
                    return False
                left.remove(card)
            continue
        if index != len(tokens) - 1:
            return False
        prefix = token.upper()
        if not any(str(card).startswith(prefix) or card.pretty.upper().startswith(prefix)
                   for card in left):
            return False
    return True


async def setup(app: App) -> None:
    await add_feature(app, PlayFeature(app))
