"""Slash-command choices more than one room offers (seats, computer levels, languages),
declared once; their names are catalog keys (`bot.i18n.lstr`)."""

from __future__ import annotations

from discord import app_commands

from bot.core.levels import LEVELS
from bot.core.table import MAX_SEATS
from bot.i18n import SUPPORTED, lstr

__all__ = ["LANGUAGE_CHOICES", "LEVEL_CHOICES", "SEAT_CHOICES"]

SEAT_CHOICES = [app_commands.Choice(name=str(n), value=n) for n in range(1, MAX_SEATS + 1)]
"""Seats 1–8 (a table has 4–8: `bot.core.seat_rules.free_seat` refuses the others)."""
LEVEL_CHOICES = [app_commands.Choice(name=lstr(f"level.{level}"), value=level)
                 for level in LEVELS]
"""The computer players' levels (``/tractor addbot level:``)."""
LANGUAGE_CHOICES = [app_commands.Choice(name=lstr(f"choice.language.{lang.lower()}"),
                                        value=lang) for lang in SUPPORTED]
"""The bot's languages (``/tractor settings``, ``/tractor defaults``)."""
