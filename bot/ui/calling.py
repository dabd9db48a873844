"""The starter's friend call on the hand panel (Finding Friends, phase CALLING).

Discord allows 5 rows and 25 options a select, and a call names a card and a copy (up to
3 suits × 12 ranks × 4 copies), so one call is picked at a time: a suit select, a rank
select and a copy select (``1st`` … ``4th``), then **Add**; the calls so far are listed
and written in every call component's id (`bot.ui.friend_calls`); **Call friends** sends them
once all F are made, **Undo** takes the last one back. Only legal calls are offered
(`engine.friends.legal_calls`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.calls import CallDraft, encode_calls
from bot.core.errors import UserFacingError
from bot.i18n import t
from bot.present.text import call_text, copy_word, suit_text
from bot.services.players import suggest_calls
from bot.ui import rows
from bot.ui.friend_calls import CallChoices, call_choices, suit_of
from bot.ui.ids import make_id
from bot.ui.rows import Component
from engine.cards import Suit
from engine.deal import deal_shape
from engine.friends import FriendCall, legal_calls
from engine.views import PlayerView

__all__ = ["CALL_SELECTS", "Calling", "call_lines", "call_rows", "calling", "usable_calling"]

CALL_SELECTS = ("fsuit", "frank", "fcopy")
"""The call selects' verbs (suit, rank, copy), rows 0–2."""


@dataclass(frozen=True, slots=True)
class Calling:
    """The starter's call being made, checked against the legal calls (computed once per
    click or panel): what the panel's lines and rows show (`call_lines`, `call_rows`)."""

    legal: tuple[FriendCall, ...]
    wanted: int
    """Friends to call (`engine.deal.DealShape.friends`)."""
    draft: CallDraft
    choices: CallChoices
    advised: tuple[FriendCall, ...] = ()
    """The calls the selects pick first (`bot.services.players.suggest_calls`)."""

    @classmethod
    def of(cls, legal: Sequence[FriendCall], wanted: int, draft: CallDraft,
           advised: Sequence[FriendCall] = ()) -> Calling:
        """`draft` among the `legal` calls (a forged draft: ``error.bad_button``)."""
        return cls(tuple(legal), wanted, draft,
                   call_choices(draft, legal, wanted, advised), tuple(advised))

    def after(self, draft: CallDraft) -> Calling:
        """Another draft among the same legal calls."""
        return Calling.of(self.legal, self.wanted, draft, self.advised)


def calling(view: PlayerView, draft: CallDraft) -> Calling:
    """`draft` for the starter's `view` (a forged draft: ``error.bad_button``); where it
    picks nothing, the selects show the calls a computer would make (issue 38: the first
    legal call, "the 1st A♣", was often a card the starter held: a void call)."""
    return Calling.of(legal_calls(view), deal_shape(view.public.rules).friends, draft,
                      suggest_calls(view))


def usable_calling(view: PlayerView, draft: CallDraft) -> Calling:
    """`calling` of `draft` if its calls are legal now, else of a fresh draft (a draft kept
    from an earlier hand never breaks the panel)."""
    fresh = calling(view, CallDraft())
    try:
        return fresh.after(draft)
    except UserFacingError:
        return fresh


def call_lines(view: PlayerView, call: Calling, locale: str) -> list[str]:
    """The panel's lines while calling: the prompt and the calls so far."""
    if not view.to_move:
        return []
    made = call.choices.made
    listed = ", ".join(call_text(c, locale) for c in made) or "—"
    return [t("panel.call_prompt", locale, count=call.wanted),
            t("panel.calls_so_far", locale, calls=listed, made=len(made), total=call.wanted)]


def call_rows(table_id: int, view: PlayerView, call: Calling, step: int,
              locale: str) -> list[list[Component]]:
    """Rows 0–3 of the starter's panel (`bot.ui.rows`' JSON): the three selects and
    Add · Undo · Call friends (once every call is made: the selects left out, Undo · Call
    friends)."""
    public = view.public
    seat = view.seat
    wanted = call.wanted
    choices = call.choices
    code = encode_calls(choices.made)

    def cid(verb: str) -> str:
        return make_id(table_id, public.hand_no, step, verb,
                       f"{seat}.{code}" if code else str(seat))

    pick = choices.pick
    full = len(choices.made) >= wanted
    out: list[list[Component]] = []
    if choices.suits and not full:
        suit = None if pick is None else suit_of(pick)
        rank = None if pick is None else str(pick.card.rank)
        symbol = suit_text(Suit(suit)) if suit else ""
        out += [
            [rows.select(cid("fsuit"), placeholder=t("panel.call_suit", locale), options=[
                rows.option(suit_text(Suit(s)), s, s == suit) for s in choices.suits])],
            [rows.select(cid("frank"), placeholder=t("panel.call_rank", locale), options=[
                rows.option(f"{r}{symbol}", r, r == rank) for r in choices.ranks])],
            [rows.select(cid("fcopy"), placeholder=t("panel.call_copy", locale), options=[
                rows.option(_copy_label(pick, k, locale), str(k),
                            pick is not None and k == pick.copy)
                for k in choices.copies])]]
    buttons: list[Component] = []
    if not full:  # every call made: no Add left to press (issue 38)
        add_label = t("button.call_add", locale,
                      call="—" if pick is None else call_text(pick, locale))
        buttons.append(rows.button(cid("fadd"), add_label[:80], style=rows.PRIMARY,
                                   disabled=pick is None))
    buttons += [
        rows.button(cid("fundo"), t("button.call_undo", locale), disabled=not choices.made),
        rows.button(cid("fcall"), t("button.call_friends", locale, made=len(choices.made),
                                    total=wanted), style=rows.SUCCESS, disabled=not full),
    ]
    return [*out, buttons]


def _copy_label(pick: FriendCall | None, copy: int, locale: str) -> str:
    """``the 2nd A♥`` for the card being picked, else ``2nd``."""
    if pick is None:
        return copy_word(copy, locale)
    return call_text(FriendCall(pick.card, copy), locale)
