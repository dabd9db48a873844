"""Tables: ``/tractor new``, ``join``, ``leave``, ``addbot``, ``start``, ``end``, ``table``,
``rules`` and ``help``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs import TractorCog, add_tractor_cog
from bot.handlers import locale_of, reply
from bot.i18n import lstr, server_locale, t

if TYPE_CHECKING:
    from bot.client import TractorBot

SEAT_CHOICES = [app_commands.Choice(name=str(n), value=n) for n in range(1, 5)]


class Tables(TractorCog):
    """Table lifecycle commands."""

    @app_commands.command(name="new", description=lstr("cmd.new.desc"))
    @app_commands.describe(
        turn_timer=lstr("cmd.new.turn_timer.desc"),
        declare_window=lstr("cmd.new.declare_window.desc"),
        kitty_multiplier=lstr("cmd.new.kitty_multiplier.desc"),
        no_bid=lstr("cmd.new.no_bid.desc"),
        must_defend=lstr("cmd.new.must_defend.desc"),
        match_end=lstr("cmd.new.match_end.desc"),
        no_trump=lstr("cmd.new.no_trump.desc"),
        throw_penalty=lstr("cmd.new.throw_penalty.desc"),
    )
    @app_commands.choices(
        kitty_multiplier=[
            app_commands.Choice(name=lstr(f"choice.kitty_multiplier.{v}"), value=v)
            for v in ("twice_cards", "largest_unit", "flat_2")],
        no_bid=[app_commands.Choice(name=lstr(f"choice.no_bid.{v}"), value=v)
                for v in ("kitty_top_card", "reveal_until_level")],
        must_defend=[app_commands.Choice(name=lstr(f"choice.must_defend.{v.lower()}"), value=v)
                     for v in ("none", "A", "5_10_K_A")],
        match_end=[app_commands.Choice(name=lstr(f"choice.match_end.{v}"), value=v)
                   for v in ("pass_ace", "loop")],
    )
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
    ) -> None:
        """Open a table in this channel (one per channel), with the table options."""
        await self.bot.handlers.guard(interaction, self._new(interaction, {
            "turn_timer_s": turn_timer, "declare_window_s": declare_window,
            "kitty_multiplier": kitty_multiplier, "no_bid": no_bid,
            "must_defend": must_defend, "match_end": match_end,
            "no_trump_allowed": no_trump, "throw_penalty": throw_penalty,
        }))

    async def _new(self, interaction: discord.Interaction[Any], given: dict[str, Any]) -> None:
        bot = self.bot
        assert interaction.guild_id is not None and interaction.channel_id is not None
        settings = await bot.store.guild_settings(interaction.guild_id)
        options: dict[str, Any] = dict(settings.table_options)
        options.update({k: v for k, v in given.items() if v is not None})
        timer = given.get("turn_timer_s")
        if timer is not None and 0 < timer < 15:
            options["turn_timer_s"] = 15
        locale = server_locale(settings.language, interaction.guild_locale)
        user = interaction.user
        name = getattr(user, "display_name", user.name)
        try:
            from engine.rules import RuleSet

            RuleSet.from_dict(options)
        except (TypeError, ValueError):
            options = {k: v for k, v in given.items() if v is not None}
        await bot.service.open_table(interaction.guild_id, interaction.channel_id, user.id,
                                     name, locale, options,
                                     player_locale=locale_of(interaction))
        await reply(interaction, t("new.done", locale_of(interaction)))

    @app_commands.command(name="join", description=lstr("cmd.join.desc"))
    @app_commands.describe(seat=lstr("cmd.join.seat.desc"))
    @app_commands.choices(seat=SEAT_CHOICES)
    async def join(self, interaction: discord.Interaction[Any],
                   seat: int | None = None) -> None:
        """Take a seat at this channel's table (a computer's seat too, before the start)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.join(
            interaction, table_id, None if seat is None else seat - 1))

    @app_commands.command(name="leave", description=lstr("cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave your seat (during a match a computer player takes it over)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.leave(
            interaction, table_id))

    @app_commands.command(name="addbot", description=lstr("cmd.addbot.desc"))
    @app_commands.describe(seat=lstr("cmd.addbot.seat.desc"))
    @app_commands.choices(seat=SEAT_CHOICES)
    async def addbot(self, interaction: discord.Interaction[Any],
                     seat: int | None = None) -> None:
        """Seat a computer player (the first empty seat unless you pick one)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.add_bot(
            interaction, table_id, None if seat is None else seat - 1))

    @app_commands.command(name="start", description=lstr("cmd.start.desc"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start the match (all four seats filled)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.start(
            interaction, table_id))

    @app_commands.command(name="end", description=lstr("cmd.end.desc"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table (its creator or Manage Channels; a running match asks first)."""
        handlers = self.bot.handlers
        await handlers.here(interaction, lambda table_id: handlers.end(
            interaction, table_id, confirmed=False))

    @app_commands.command(name="table", description=lstr("cmd.table.desc"))
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table message again at the bottom of the channel."""
        async def repost(table_id: int) -> None:
            await self.bot.service.repost(table_id)
            await reply(interaction, t("table.reposted", locale_of(interaction)))
        await self.bot.handlers.here(interaction, repost)

    @app_commands.command(name="rules", description=lstr("cmd.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """How to play, and this table's options (its creator may change them before the
        start)."""
        async def show() -> None:
            found = await self.bot.service.table_in_channel(interaction.channel_id or 0)
            await self.bot.handlers.rules(interaction, None if found is None else found[0].id)
        await self.bot.handlers.guard(interaction, show())

    @app_commands.command(name="help", description=lstr("cmd.help.desc"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The game in brief, the commands, and the options of this channel's table."""
        async def show() -> None:
            found = await self.bot.service.table_in_channel(interaction.channel_id or 0)
            await self.bot.handlers.help(interaction, None if found is None else found[0].id)
        await self.bot.handlers.guard(interaction, show())


async def setup(bot: TractorBot) -> None:
    await add_tractor_cog(bot, Tables(bot))
