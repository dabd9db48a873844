"""Take-backs (R12 `take_backs`): the panel's ``Take back`` button (``/tractor tricks
takeback`` is in the Tricks room's subgroup; both answer through `bot.ui.takeback`).

The engine decides who may take back what (`PublicView.take_back_seat`, `TakeBack`); a
refusal is its translated ruling. The service applies it (`TableService.take_back`, which
answers with the cards returned), turns the `PlayTakenBack` event into a table line,
re-arms the turn timer and refreshes the panels; this room only answers the click.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.features import App, Feature, add_feature
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.takeback import TakeBacks as TakeBackAnswers


class TakeBacks(Feature, name="TakeBacks"):
    """Taking back one's last play."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.take_backs = TakeBackAnswers(app.service, app.selections, app.publisher)
        app.router.add(VerbSpec("takeback", "panel", seat="required"), self._button)

    async def _button(self, interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        await self.take_backs.clicked(interaction, cid.table, cid.seat, cid.step)


async def setup(app: App) -> None:
    await add_feature(app, TakeBacks(app))
