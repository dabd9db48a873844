"""What one move does, structurally (issue 16): work that was computed and thrown away is
not made, the worker is asked once for what one step needs, and no task is made for what a
plain await does."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from botkit import assert_ok, find
from test_publish_pictures import alice_to_play, pick_first

from bot.core.table import TableDoc
from bot.runtime import offload
from bot.services.pictures import Pictures, _draw_hand
from bot.ui import panels
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
async def test_a_panel_asks_the_worker_once_and_makes_no_task(monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    asked: list[str] = []

    async def run(fn: Any, *args: Any, priority: int = offload.COMPUTERS) -> Any:
        asked.append(fn.__name__)
        return fn(*args)

    workers = offload.Workers()
    monkeypatch.setattr(workers, "run", run)
    pictures = Pictures(workers)
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
        # both missing: one job
        first = await panels.build_panel(doc, 7, turn, "en", [], pictures=pictures)
        assert (asked, made) == (["_each"], [])
        asked.clear()
        # both known: no job
        again = await panels.build_panel(doc, 7, turn, "en", [], pictures=pictures)
        assert (asked, made) == ([], []) and again.content == first.content
        assert again.image == first.image == _draw_hand(
            match.view_for(turn), "en", (), True)
        # a picture only
        await panels.build_panel(doc, 7, (turn + 1) % 4, "en", [], pictures=pictures)
        assert asked == ["_draw_hand"]
        assert not any("hand_picture" in name or "panel_plays" in name for name in made)
    finally:
        loop.set_task_factory(None)
        panels._PLAYS.clear()


@pytest.mark.asyncio
async def test_warming_hands_each_answer_to_its_cache_and_leaves_failures() -> None:
    kept: list[Any] = []
    workers = offload.Workers()
    await workers.warm([offload.Want(abs, (-2,), kept.append),
                        offload.Want(int, ("x",), kept.append),  # fails: left to its path
                        offload.Want(len, ("abc",), kept.append)])
    assert kept == [2, 3]
    await workers.warm([offload.Want(abs, (-2,), kept.append)])  # one: nothing to save
    assert kept == [2, 3]


async def test_a_play_is_published_with_one_worker_job(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice plays: the table picture and her new hand's picture are asked for in one job
    (they were two round trips, one after the other); what is shown is what it was."""
    async with alice_to_play(tmp_path) as (w, alice):
        asked: list[tuple[str, ...]] = []
        workers = w.bot.workers
        run = workers.run

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            inner = tuple(f.__name__ for f, _ in args[0]) if fn is offload._each else ()
            asked.append((fn.__name__, *inner))
            return await run(fn, *args, **kwargs)

        monkeypatch.setattr(workers, "run", counted)
        await pick_first(w, alice)
        await w.bot.publisher.idle()
        panel = w.dm_panel(alice)
        asked.clear()
        w.bot.service.autopilot._closed = True  # the computers wait: this publish only
        assert_ok(await alice.user.click(panel, custom_id=find(panel, "play").custom_id))
        await w.bot.publisher.idle()
        assert asked == [("_each", "table_png", "_draw_hand")], asked
        assert w.table_message().attachments and w.dm_panel(alice).attachments
        assert not w.env.errors, w.env.errors
