"""The friend call (Finding Friends, phase CALLING): the suit, rank and copy selects,
**Add**, **Undo** and **Call friends** on the starter's hand panel (drawn by
`bot.ui.calling`).

The draft (`bot.core.calls.CallDraft`) a click makes is read from the clicked panel (the
calls so far in its ids, the card being picked in its selects' defaults: an older panel
keeps working), checked against the legal calls (computed once a click), and kept with the
table (`TableDoc.call_draft`, bookkeeping that changes no step), so a restart redraws it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.calls import CallDraft, calls_ok, encode_calls
from bot.core.errors import UserFacingError
from bot.core.table import TableDoc
from bot.features import App, Feature, add_feature
from bot.ui.calling import CALL_SELECTS, calling
from bot.ui.friend_calls import suit_of
from bot.ui.hand import HandPanels, select_default
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import locale_of
from engine.actions import CallFriends
from engine.game import Phase

__all__ = ["CALL_VERBS", "FriendCalling", "message_draft"]

CALL_VERBS = (*CALL_SELECTS, "fadd", "fundo", "fcall")


def message_draft(message: discord.Message | None, calls: str) -> CallDraft:
    """The draft a panel shows: `calls` (from the clicked id) and the card its call selects
    show chosen."""
    copy = select_default(message, "fcopy")
    return CallDraft(calls, select_default(message, "fsuit"), select_default(message, "frank"),
                     int(copy) if copy.isdigit() else 0)


class FriendCalling(Feature, name="Calling"):
    """The starter's friend call."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.panels = HandPanels(app.store, app.publisher, app.selections)
        for verb in CALL_VERBS:  # each id's arg: the seat, then the calls so far
            app.router.add(VerbSpec(verb, "panel", select=verb in CALL_SELECTS,
                                    seat="required", extra=calls_ok), self._verb)

    async def _verb(self, interaction: discord.Interaction[Any], cid: ComponentId,
                    values: list[str]) -> None:
        locale = locale_of(interaction)
        doc = await self.app.access.table(interaction, cid.table)
        seat = cid.seat
        match = doc.get_match()
        if match is None or seat is None:
            raise UserFacingError("error.no_match")
        if cid.hand != match.hand_no or cid.step != doc.step:
            await self.panels.stale(interaction, doc, cid.table, seat, locale)
            self.panels.track(interaction, cid.table, seat)
            return
        view = match.view_for(seat)
        if match.phase is not Phase.CALLING or not view.to_move:
            raise UserFacingError("error.bad_button")
        shown = message_draft(interaction.message, cid.extra)
        value = values[0] if values else ""
        if cid.verb == "fsuit":
            shown = CallDraft(shown.calls, value)
        elif cid.verb == "frank":
            shown = CallDraft(shown.calls, shown.suit, value)
        elif cid.verb == "fcopy":
            shown = CallDraft(shown.calls, shown.suit, shown.rank,
                              int(value) if value.isdigit() else 0)
        call = calling(view, shown)  # the legal calls, once; calls not legal now: refused
        made = list(call.choices.made)
        if cid.verb == "fadd":
            pick = call.choices.pick
            if pick is None or len(made) >= call.wanted:
                raise UserFacingError("error.bad_button")
            call = call.after(CallDraft(encode_calls([*made, pick])))
        elif cid.verb == "fundo":  # the call taken back is picked again
            if not made:
                raise UserFacingError("error.bad_button")
            last = made[-1]
            call = call.after(CallDraft(encode_calls(made[:-1]), suit_of(last),
                                        str(last.card.rank), last.copy))
        elif cid.verb == "fcall":
            if len(made) != call.wanted:
                raise UserFacingError("error.bad_button")
            await self.app.service.act(cid.table, interaction.user.id,
                                       lambda s: CallFriends(s, tuple(made)), step=cid.step)
            if self.panels.track(interaction, cid.table, seat):
                self.app.publisher.refresh_ephemeral(cid.table, seat)
            return
        await self._keep(cid.table, cid.step, call.draft)
        await self.panels.edit(interaction, doc, cid.table, seat, [], locale, call=call)
        self.panels.track(interaction, cid.table, seat)

    async def _keep(self, table_id: int, step: int, draft: CallDraft) -> None:
        """Keep `draft` with the table (its own save, no step change, nothing published)."""
        def keep(doc: TableDoc) -> None:
            doc.call_draft = (step, draft)
        await self.app.service.update_meta(table_id, keep)


async def setup(app: App) -> None:
    await add_feature(app, FriendCalling(app))
