"""Components: `DynamicItem`s whose custom id carries everything needed after a restart.

Custom id: ``tr:{table}:{hand}:{step}:{verb}[:{arg}]`` (≤100 characters), e.g.
``tr:12:3:57:play:2`` (seat 2 presses Play on its panel of hand 3 at step 57). ``arg``
holds the seat and, for some verbs, more (``2.H`` = seat 2 declares hearts). Buttons and
selects have disjoint verbs so exactly one template matches a custom id.

The items only parse; `TractorBot.handle_component` does the work (bot/handlers.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

if TYPE_CHECKING:
    from bot.client import TractorBot

__all__ = [
    "BUTTON_VERBS",
    "SELECT_VERBS",
    "ComponentId",
    "TractorButton",
    "TractorSelect",
    "make_id",
    "parse_id",
]

BUTTON_VERBS = (
    # hand panel
    "play", "clear", "hint", "type", "decl", "pass", "bury", "suggest", "refresh",
    # table message
    "myhand", "last", "score", "back", "join", "leave", "addbot", "start", "rules",
    # confirmations
    "endyes", "endno",
)
SELECT_VERBS = ("sel", "quick", "opt")

_ARG = r"(?::(?P<arg>[A-Za-z0-9._\-]{1,40}))?"
_HEAD = r"tr:(?P<table>\d{1,19}):(?P<hand>\d{1,6}):(?P<step>\d{1,9}):"
BUTTON_TEMPLATE = re.compile(_HEAD + r"(?P<verb>" + "|".join(BUTTON_VERBS) + r")" + _ARG)
SELECT_TEMPLATE = re.compile(_HEAD + r"(?P<verb>" + "|".join(SELECT_VERBS) + r")" + _ARG)


@dataclass(frozen=True, slots=True)
class ComponentId:
    """A parsed custom id."""

    table: int
    hand: int
    step: int
    verb: str
    arg: str = ""

    @property
    def seat(self) -> int | None:
        """The seat in ``arg`` (its first dot-separated part), if any."""
        head = self.arg.split(".", 1)[0]
        return int(head) if head.isdigit() and len(head) == 1 else None

    @property
    def extra(self) -> str:
        """What follows the seat in ``arg`` (``H`` in ``2.H``)."""
        parts = self.arg.split(".", 1)
        return parts[1] if len(parts) == 2 else ""

    def __str__(self) -> str:
        return make_id(self.table, self.hand, self.step, self.verb, self.arg)


def make_id(table: int, hand: int, step: int, verb: str, arg: str = "") -> str:
    custom_id = f"tr:{table}:{hand}:{step}:{verb}" + (f":{arg}" if arg else "")
    assert len(custom_id) <= 100, custom_id
    return custom_id


def parse_id(custom_id: str) -> ComponentId | None:
    for template in (BUTTON_TEMPLATE, SELECT_TEMPLATE):
        match = template.fullmatch(custom_id)
        if match:
            return _from_match(match)
    return None


def _from_match(match: re.Match[str]) -> ComponentId:
    return ComponentId(int(match["table"]), int(match["hand"]), int(match["step"]),
                       match["verb"], match["arg"] or "")


class TractorButton(ui.DynamicItem[ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Every button of the bot (table message, hand panels, confirmations)."""

    def __init__(self, cid: ComponentId, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, emoji: str | None = None, row: int | None = None,
                 button: ui.Button[Any] | None = None) -> None:
        item = button or ui.Button(label=label, style=style, disabled=disabled, emoji=emoji,
                                   custom_id=str(cid), row=row)
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: ui.Item[Any], match: re.Match[str], /) -> TractorButton:
        assert isinstance(item, ui.Button)
        return cls(_from_match(match), button=item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: TractorBot = interaction.client
        await bot.handle_component(interaction, self.cid, [])


class TractorSelect(ui.DynamicItem[ui.Select[Any]], template=SELECT_TEMPLATE):
    """Every select of the bot (card selects, quick plays, table options)."""

    def __init__(self, cid: ComponentId, *, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, min_values: int = 1, max_values: int = 1,
                 disabled: bool = False, row: int | None = None,
                 select: ui.Select[Any] | None = None) -> None:
        item = select or ui.Select(custom_id=str(cid), options=options or [],
                                   placeholder=placeholder, min_values=min_values,
                                   max_values=max_values, disabled=disabled, row=row)
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: ui.Item[Any], match: re.Match[str], /) -> TractorSelect:
        assert isinstance(item, ui.Select)
        return cls(_from_match(match), select=item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: TractorBot = interaction.client
        await bot.handle_component(interaction, self.cid, list(self.item.values))


def link_button(label: str, url: str, row: int | None = None) -> ui.Button[Any]:
    return ui.Button(label=label, url=url, style=discord.ButtonStyle.link, row=row)
