"""What one move does, structurally (issue 16): work that was computed and thrown away, and
tasks made for what a plain await does, are not made."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import offload, pictures
from bot.table import TableDoc
from bot.ui import components, panels
from engine.actions import Play, StartHand
from engine.game import Match
from engine.rules import RuleSet
from tests.bot.test_hot_path_caches import playing_match


def test_the_stored_match_is_the_engines_without_its_rules(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    match, _ = Match.new(RuleSet()).apply(StartHand(3))
    full = match.to_dict()
    bare = match.to_dict(rules=False)
    assert list(bare) == [k for k in full if k != "rules"]
    assert bare == {k: v for k, v in full.items() if k != "rules"}
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.set_match(match)
    assert doc.match == bare and doc.get_match() is match
    calls: list[int] = []
    original = RuleSet.to_dict
    monkeypatch.setattr(RuleSet, "to_dict", lambda self: calls.append(1) or original(self))
    playing = playing_match()
    turn = playing.public_view().turn
    assert turn is not None
    doc.set_match(playing)  # another rules object: reconciled with the options once
    calls.clear()
    moved, _ = playing.apply(Play(turn, (playing.view_for(turn).hand[0],)))
    doc.set_match(moved)  # a move keeps its match's rules: no rules dict built
    assert calls == [] and doc.get_match() is moved


@pytest.mark.asyncio
async def test_a_panel_asks_the_worker_without_tasks_unless_it_needs_two_things(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    async def run(fn: Any, *args: Any, priority: float = offload.NORMAL) -> Any:
        asked.append(fn.__name__)
        return fn(*args)

    monkeypatch.setattr(offload, "run", run)
    pictures.hands.items.clear()
    panels._PLAYS.clear()
    match = playing_match()
    turn = match.public_view().turn
    assert turn is not None
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.set_match(match)
    made: list[str] = []
    loop = asyncio.get_running_loop()
    loop.set_task_factory(lambda loop, coro, **kw: made.append(coro.__qualname__)
                          or asyncio.Task(coro, loop=loop, **kw))
    try:
        first = await panels.build_panel(doc, 7, turn, "en", [])  # both missing: together
        assert sorted(asked) == ["_draw_hand", "quick_plays"] and made
        asked.clear()
        made.clear()
        again = await panels.build_panel(doc, 7, turn, "en", [])  # both known: no job
        assert (asked, made) == ([], []) and again.content == first.content
        other = (turn + 1) % 4
        await panels.build_panel(doc, 7, other, "en", [])  # a picture only: awaited as is
        assert asked == ["_draw_hand"]
        assert not any("hand_picture" in name or "panel_plays" in name for name in made)
    finally:
        loop.set_task_factory(None)
        pictures.hands.items.clear()
        panels._PLAYS.clear()


@pytest.mark.asyncio
async def test_the_late_deferral_is_a_timer_until_it_is_due(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    deferred: list[float] = []

    async def defer_late(interaction: Any, after: float) -> None:
        deferred.append(after)

    monkeypatch.setattr(components, "defer_late", defer_late)
    monkeypatch.setattr(components, "ANSWER_WITHIN", 0.01)

    class Click:
        def __init__(self) -> None:
            self.extras: dict[str, Any] = {}

    answered, late = Click(), Click()
    for click in (answered, late):
        click.extras[components.LATE_KEY] = components._defer_later(click)  # type: ignore[arg-type]
        assert isinstance(click.extras[components.LATE_KEY], asyncio.TimerHandle)
    answered.extras.pop(components.LATE_KEY).cancel()  # answered in time: nothing more
    await asyncio.sleep(0.05)
    task = late.extras[components.LATE_KEY]
    assert isinstance(task, asyncio.Task)
    await task
    assert deferred == [0]
