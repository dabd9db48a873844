"""The hot path's small caches (issue 16) never serve what another view would show: the
sorted hand follows the hand, the trump and the kitty; Quick plays follow the view."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.table import seats_to_act
from bot.render.sorting import hand_groups
from bot.runtime.offload import Workers
from bot.services.players import computer_action, quick_plays
from bot.ui.panels import panel_plays
from bot.ui.selection import groups, instances, pool, pool_values
from engine.actions import Play, StartHand
from engine.cards import Rank, Suit
from engine.game import Match, Phase
from engine.rules import RuleSet
from engine.trump import Trump
from engine.views import PlayerView


def dealt_view(seat: int = 0) -> PlayerView:
    match, _ = Match.new(RuleSet()).apply(StartHand(7))
    return match.view_for(seat)


def expected(view: PlayerView) -> list[list[object]]:
    public = view.public
    assert public.level is not None
    return [list(g) for g in hand_groups(list(view.hand), public.trump, public.level)]


def test_the_sorted_hand_follows_the_trump_and_the_hand() -> None:
    view = dealt_view()
    assert groups(view) == expected(view)
    assert pool_values(view) == instances(pool(view))
    trumped = replace(view, public=replace(view.public, trump=Trump(Rank(2), Suit.HEARTS)))
    assert trumped.hand is view.hand and groups(trumped) == expected(trumped)
    assert groups(trumped) != groups(view)  # the same cards, another order
    fewer = replace(trumped, hand=trumped.hand[1:])  # a card played: another tuple
    assert pool(fewer) == [c for g in expected(fewer) for c in g]
    assert len(pool(fewer)) == len(pool(trumped)) - 1


def test_callers_may_change_what_they_get() -> None:
    view = dealt_view(1)
    got = groups(view)
    got[0].clear()
    pool(view).clear()
    assert groups(view) == expected(view)


def playing_match() -> Match:
    """A match in play, a few tricks in (the greedy computers bid, bury and play)."""
    match, _ = Match.new(RuleSet()).apply(StartHand(7))
    while match.phase is not Phase.PLAYING or match.public_view().tricks_played < 2:
        seat = seats_to_act(match)[0]
        match, _ = match.apply(computer_action(match.view_for(seat), "greedy", 1))
    return match


@pytest.mark.asyncio
async def test_quick_plays_only_for_the_seat_to_play_and_per_view() -> None:
    assert await panel_plays(dealt_view(), Workers()) == []  # declaring: nothing to play
    match = playing_match()
    turn = match.public_view().turn
    for seat in range(4):
        view = match.view_for(seat)
        assert await panel_plays(view, Workers()) == quick_plays(view)
        assert bool(quick_plays(view)) == (seat == turn)
    view = match.view_for(turn)
    played, _ = match.apply(Play(turn, quick_plays(view)[0].cards))
    after = played.view_for(turn)  # the same seat once it played: nothing more to play
    assert await panel_plays(view, Workers()) and await panel_plays(after, Workers()) == []


def test_the_heap_is_settled_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from bot.runtime import memory

    calls: list[str] = []
    monkeypatch.setattr(memory, "_settled", False)
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    assert memory.settle_heap() is True and calls == ["collect", "freeze"]
    assert memory.settle_heap() is False and calls == ["collect", "freeze"]  # a second bot
