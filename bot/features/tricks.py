"""The Tricks view: the table message's ``Tricks`` button and ``/tractor tricks``.

Every trick of the current hand (who led, the plays, who won, the points) rebuilt from the
public view alone, and — unless the table's ``unseen_count`` option is off — what the
viewer has not seen yet: cards neither played nor in their own hand (nor in the kitty they
buried). An ephemeral reply in as few messages as Discord's limits allow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import UserFacingError
from bot.core.options import option_values
from bot.core.table import TableDoc
from bot.features import App, Feature, add_feature, guarded
from bot.i18n import lstr, t
from bot.present.text import cards_text, level_text, suit_text, trick_line, trump_text
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import locale_of, pages, send
from bot.ui.takeback import TakeBacks
from engine.cards import ALL_CARDS, Card, Suit
from engine.deal import deal_shape
from engine.game import Phase, Trick
from engine.trick import trick_winner
from engine.trump import Trump
from engine.views import PublicView

TOP_CARDS = 4
"""Unseen cards listed per suit (the highest ones)."""


def hand_tricks(public: PublicView) -> list[Trick]:
    """The hand's tricks so far, the current one last (winner None while under way),
    from the public list of plays."""
    trump = public.trump
    if trump is None:
        return []
    played = public.played
    seats = public.seats
    tricks: list[Trick] = []
    for start in range(0, len(played), seats):
        chunk = played[start:start + seats]
        plays = tuple(cards for _, cards in chunk)
        leader = chunk[0][0]
        winner = ((leader + trick_winner(plays, trump, public.rules.throw_ruff)) % seats
                  if len(chunk) == seats else None)
        tricks.append(Trick(start // seats + 1, leader, plays, winner,
                            throw_ruff=public.rules.throw_ruff, seat_count=seats))
    return tricks


def unseen_cards(public: PublicView, known: Sequence[Card]) -> list[Card]:
    """Every card of the table's decks (108 with two) less those played and those the
    viewer holds or knows (`known`)."""
    left = Counter({card: deal_shape(public.rules).decks for card in ALL_CARDS})
    left.subtract(card for _, cards in public.played for card in cards)
    left.subtract(known)
    return [card for card, count in left.items() for _ in range(max(count, 0))]


def unseen_lines(cards: Sequence[Card], trump: Trump, locale: str) -> list[str]:
    """The count: trumps by rank class, point cards, the top cards of each side suit."""
    trumps = trump.sort([c for c in cards if trump.is_trump(c)])
    jokers = sum(1 for c in trumps if c.suit is None)
    levels = sum(1 for c in trumps if c.suit is not None and c.rank == trump.level)
    classes = [t("tricks.class.jokers", locale, count=jokers),
               t("tricks.class.level", locale, level=level_text(trump.level), count=levels)]
    if trump.suit is not None:
        classes.append(t("tricks.class.suit", locale, suit=suit_text(trump.suit),
                         count=len(trumps) - jokers - levels))
    lines = [t("tricks.unseen_trumps", locale, count=len(trumps), classes=" · ".join(classes),
               cards=cards_text(trumps[:TOP_CARDS]) or "—")]
    points = Counter(c.rank for c in cards if c.points)
    lines.append(t("tricks.unseen_points", locale, total=sum(c.points for c in cards),
                   counts=" · ".join(f"{level_text(rank)}×{points[rank]}"
                                     for rank in sorted(points)) or "—"))
    for suit in Suit:
        if suit == trump.suit:
            continue
        side = trump.sort([c for c in cards if not trump.is_trump(c) and c.suit == suit])
        lines.append(t("tricks.unseen_suit", locale, suit=suit_text(suit), count=len(side),
                       cards=cards_text(side[:TOP_CARDS]) or "—"))
    return lines


def tricks_lines(doc: TableDoc, public: PublicView, known: Sequence[Card],
                 locale: str) -> list[str]:
    """The whole Tricks view for a viewer who holds or knows `known`."""
    trump = public.trump
    if trump is None or public.phase not in (Phase.PLAYING, Phase.BETWEEN_HANDS,
                                             Phase.MATCH_OVER):
        raise UserFacingError("tricks.none")
    lines = [t("tricks.title", locale, number=public.hand_no, trump=trump_text(trump, locale),
               level=level_text(trump.level))]
    failed = list(public.failed_throws)
    for trick in hand_tricks(public):
        lines.append(t("tricks.trick", locale, number=trick.number,
                       plays=trick_line(doc, trick, locale, trump), points=trick.points))
        if failed and failed[0].seat == trick.leader and failed[0].forced == trick.lead:
            throw = failed.pop(0)
            lines.append(t("tricks.failed_throw", locale, attempted=cards_text(throw.attempted)))
    if len(lines) == 1:
        lines.append(t("tricks.no_tricks", locale))
    if option_values(doc.options)["unseen_count"] and public.phase is Phase.PLAYING:
        lines.append(t("tricks.unseen_title", locale))
        lines += unseen_lines(unseen_cards(public, known), trump, locale)
    return lines


class TricksView(Feature, name="Tricks"):
    """Seeing the hand so far (``/tractor tricks show``), and taking back one's last play
    (``/tractor tricks takeback``, answered by `bot.ui.takeback`)."""

    subgroup = "tricks"
    grouped = ("show", "takeback")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.take_backs = TakeBacks(app.service, app.selections, app.publisher)
        app.router.add(VerbSpec("tricks", "table"), self._button, ack="reply")

    async def _button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        await self.show(interaction, await self.app.access.table(interaction, cid.table))

    @app_commands.command(name="show", description=lstr("cmd.tricks.show.desc"))
    @guarded
    async def show_command(self, interaction: discord.Interaction[Any]) -> None:
        """Every trick of this hand, and what you have not seen yet."""
        await self.ack(interaction)
        _, doc = await self.here(interaction)
        await self.show(interaction, doc)

    @app_commands.command(name="takeback", description=lstr("cmd.takeback.desc"))
    @guarded
    async def takeback(self, interaction: discord.Interaction[Any]) -> None:
        """Take back your last play, before the next seat acts (tables with take-backs)."""
        await self.ack(interaction)
        table_id, doc = await self.here(interaction)
        await self.take_backs.typed(interaction, table_id, doc.seat_of(interaction.user.id))

    async def show(self, interaction: discord.Interaction[Any], doc: TableDoc) -> None:
        locale = locale_of(interaction)
        match = doc.get_match()
        if match is None:
            raise UserFacingError("tricks.none")
        seat = doc.seat_of(interaction.user.id)
        known: list[Card] = []
        if seat is not None:
            view = match.view_for(seat)
            known = [*view.hand, *(view.kitty or ())]
        for text in pages(tricks_lines(doc, match.public_view(), known, locale)):
            await send(interaction, text)


async def setup(app: App) -> None:
    await add_feature(app, TricksView(app))
