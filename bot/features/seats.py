"""Seats during a match (issue 13): ``/tractor seat take|kick|swap|addbot|removebot``.

``take`` and ``addbot`` answer as the lobby's ``/tractor join`` and ``/tractor addbot`` do
(the names players already type keep working), through `bot.ui.seat_answers.SeatAnswers`;
the transactions are `bot.services.seating.Seating`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.features import App, Feature, add_feature, guarded
from bot.i18n import lstr, t
from bot.ui.access import manages_channels
from bot.ui.choices import LEVEL_CHOICES, SEAT_CHOICES
from bot.ui.replies import send
from bot.ui.seat_answers import SeatAnswers


def _index(seat: int | None) -> int | None:
    return None if seat is None else seat - 1


class Seats(Feature):
    """Taking, giving away and swapping seats; computers added and removed."""

    subgroup = "seat"
    grouped = ("take", "kick", "swap", "addbot", "removebot")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.seats = SeatAnswers(app.service)
        self.seating = self.seats.seating

    @app_commands.command(name="take", description=lstr("cmd.seat.take.desc"))
    @app_commands.describe(seat=lstr("cmd.join.seats.desc"))
    @app_commands.choices(seat=SEAT_CHOICES)
    @guarded
    async def take(self, interaction: discord.Interaction[Any],
                   seat: int | None = None) -> None:
        """Take a free seat or a computer's (during a hand: from the next hand)."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.seats.join(interaction, table_id, _index(seat))

    @app_commands.command(name="kick", description=lstr("cmd.seat.kick.desc"))
    @app_commands.describe(seat=lstr("cmd.seat.kick.seats.desc"))
    @app_commands.choices(seat=SEAT_CHOICES)
    @guarded
    async def kick(self, interaction: discord.Interaction[Any], seat: int) -> None:
        """Give a person's seat away: a computer plays it until someone sits."""
        locale = await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        name = await self.seating.kick(table_id, interaction.user.id, seat - 1,
                                       can_manage=manages_channels(interaction))
        await send(interaction, t("seat.kicked", locale, player=name, number=seat))

    @app_commands.command(name="swap", description=lstr("cmd.seat.swap.desc"))
    @app_commands.describe(first=lstr("cmd.seat.swap.first_n.desc"),
                           second=lstr("cmd.seat.swap.second_n.desc"))
    @app_commands.choices(first=SEAT_CHOICES, second=SEAT_CHOICES)
    @guarded
    async def swap(self, interaction: discord.Interaction[Any], first: int,
                   second: int) -> None:
        """Swap two seats (in the lobby or between hands)."""
        locale = await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.seating.swap(table_id, interaction.user.id, first - 1, second - 1,
                                can_manage=manages_channels(interaction))
        await send(interaction, t("seat.swapped", locale, first=first, second=second))

    @app_commands.command(name="addbot", description=lstr("cmd.addbot.desc"))
    @app_commands.describe(seat=lstr("cmd.addbot.seats.desc"),
                           level=lstr("cmd.addbot.level.desc"))
    # One decorator per choice type: discord.py types choices() with a single ChoiceT.
    @app_commands.choices(seat=SEAT_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    @guarded
    async def addbot(self, interaction: discord.Interaction[Any], seat: int | None = None,
                     level: str | None = None) -> None:
        """Seat a computer player, or set a computer's level."""
        await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        await self.seats.add_bot(interaction, table_id, _index(seat), level)

    @app_commands.command(name="removebot", description=lstr("cmd.seat.removebot.desc"))
    @app_commands.describe(seat=lstr("cmd.seat.removebot.seats.desc"))
    @app_commands.choices(seat=SEAT_CHOICES)
    @guarded
    async def removebot(self, interaction: discord.Interaction[Any],
                        seat: int | None = None) -> None:
        """Take a computer away (in the lobby or between hands)."""
        locale = await self.ack(interaction)
        table_id, _ = await self.here(interaction)
        index = await self.seating.remove_bot(table_id, interaction.user.id, _index(seat),
                                              can_manage=manages_channels(interaction))
        await send(interaction, t("seat.bot_removed", locale, number=index + 1))


async def setup(app: App) -> None:
    await add_feature(app, Seats(app))
