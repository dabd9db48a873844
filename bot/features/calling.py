"""The friend call's verbs on the starter's hand panel (Finding Friends, phase CALLING):
the suit, rank and copy selects, **Add**, **Undo** and **Call friends** (the panel is
`bot.ui.calling`; the calls so far travel in the components' ids, parsed by
`bot.core.friends`). Registered by the Play room, whose panel helpers they use."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.core.errors import UserFacingError
from bot.core.friends import CALLING, CallDraft, calls_ok, encode_calls
from bot.core.table import TableDoc
from bot.features import App
from bot.ui.calling import CALL_SELECTS, choices_for
from bot.ui.ids import ComponentId, VerbSpec
from bot.ui.replies import locale_of
from engine.actions import CallFriends
from engine.deal import deal_shape

__all__ = ["CALL_VERBS", "register"]

CALL_VERBS = (*CALL_SELECTS, "fadd", "fundo", "fcall")


class PlayFeature(Protocol):
    """What the call verbs use of the Play room (`bot.features.play.PlayFeature`)."""

    app: App

    async def doc_for(self, interaction: discord.Interaction[Any],
                      table_id: int) -> TableDoc: ...

    async def _stale(self, interaction: discord.Interaction[Any], doc: TableDoc,
                     table_id: int, seat: int, locale: str) -> None: ...

    async def _edit_panel(self, interaction: discord.Interaction[Any], doc: TableDoc,
                          table_id: int, seat: int, selected: list[str],
                          locale: str) -> None: ...

    def _track_panel(self, interaction: discord.Interaction[Any], table_id: int,
                     seat: int) -> bool: ...


def register(feature: PlayFeature) -> None:
    """Add the call verbs to the router (each id's arg: the seat, then the calls so far)."""
    async def handler(interaction: discord.Interaction[Any], cid: ComponentId,
                      values: list[str]) -> None:
        await call_verb(feature, interaction, cid, values)
    for verb in CALL_VERBS:
        feature.app.router.add(VerbSpec(verb, "panel", select=verb in CALL_SELECTS,
                                        seat="required", extra=calls_ok), handler)


def message_pick(message: discord.Message | None) -> tuple[str, str, int]:
    """The suit, rank and copy the panel's call selects show chosen."""
    chosen = {"fsuit": "", "frank": "", "fcopy": "0"}
    for row in [] if message is None else message.components:
        for child in getattr(row, "children", []):
            verb = ((getattr(child, "custom_id", None) or "").split(":") + [""] * 5)[4]
            if verb in chosen:
                chosen[verb] = next((o.value for o in getattr(child, "options", [])
                                     if o.default), chosen[verb])
    copy = chosen["fcopy"]
    return chosen["fsuit"], chosen["frank"], int(copy) if copy.isdigit() else 0


async def call_verb(feature: PlayFeature, interaction: discord.Interaction[Any],
                    cid: ComponentId, values: list[str]) -> None:
    locale = locale_of(interaction)
    doc = await feature.doc_for(interaction, cid.table)
    seat = cid.seat
    match = doc.get_match()
    if match is None or seat is None:
        raise UserFacingError("error.no_match")
    if cid.hand != match.hand_no or cid.step != doc.step:
        await feature._stale(interaction, doc, cid.table, seat, locale)
        feature._track_panel(interaction, cid.table, seat)
        return
    view = match.view_for(seat)
    if match.phase != CALLING or not view.to_move:
        raise UserFacingError("error.bad_button")
    suit, rank, copy = message_pick(interaction.message)
    value = values[0] if values else ""
    if cid.verb == "fsuit":
        suit, rank, copy = value, "", 0
    elif cid.verb == "frank":
        rank, copy = value, 0
    elif cid.verb == "fcopy":
        copy = int(value) if value.isdigit() else 0
    draft = CallDraft(cid.extra, suit, rank, copy)
    choices = choices_for(view, draft)  # calls not legal now: error.bad_button
    made = list(choices.made)
    wanted = deal_shape(view.public.rules).friends
    if cid.verb == "fadd":
        if choices.pick is None or len(made) >= wanted:
            raise UserFacingError("error.bad_button")
        draft = CallDraft(encode_calls([*made, choices.pick]))
    elif cid.verb == "fundo":  # the call taken back is picked again
        if not made:
            raise UserFacingError("error.bad_button")
        last = made[-1]
        draft = CallDraft(encode_calls(made[:-1]), last.card.suit.value, str(last.card.rank),
                          last.copy)
    elif cid.verb == "fcall":
        if len(made) != wanted:
            raise UserFacingError("error.bad_button")
        await feature.app.service.act(cid.table, interaction.user.id,
                                      lambda s: CallFriends(s, tuple(made)), step=cid.step)
        feature.app.selections.clear(cid.table, seat)
        if feature._track_panel(interaction, cid.table, seat):
            feature.app.publisher.refresh_ephemeral(cid.table, seat)
        return
    feature.app.selections.set(cid.table, seat, draft.values())
    await feature._edit_panel(interaction, doc, cid.table, seat, draft.values(), locale)
    feature._track_panel(interaction, cid.table, seat)
