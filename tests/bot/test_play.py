"""Whole hands with four people: one through the panel's buttons and selects, the next
through the typed commands with autocomplete; no public message, public image or INFO log
line shows a card before it is public."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from botkit import (
    CANONICAL,
    PRETTY,
    LeakScanner,
    by_panel,
    by_typing,
    play_hand,
    ready_all,
    seats_to_act,
    world,
)

from bot import render
from engine.game import Phase
from engine.views import PublicView


async def test_four_people_play_a_hand_by_panel_and_a_hand_by_typing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    public_inputs: list[type] = []
    real_table, real_summary = render.render_table, render.render_summary

    def spy_table(view: Any, *args: Any, **kwargs: Any) -> bytes:
        public_inputs.append(type(view))
        return real_table(view, *args, **kwargs)

    def spy_summary(view: Any, *args: Any, **kwargs: Any) -> bytes:
        public_inputs.append(type(view))
        return real_summary(view, *args, **kwargs)

    monkeypatch.setattr(render, "render_table", spy_table)
    monkeypatch.setattr(render, "render_summary", spy_summary)
    caplog.set_level(logging.INFO)
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4)
        await w.start()
        scanner = LeakScanner(w)
        await scanner.check()
        first = await play_hand(w, by_panel, scanner=scanner)
        assert first == 1
        await ready_all(w)  # the Ready check between hands
        match = await w.match()
        assert match.hand_no == 2 and match.phase is Phase.DECLARING
        summary = [m for m in w.public_messages() if "Hand 1 is over" in m.content]
        assert len(summary) == 1 and summary[0].attachments  # kitty, points, levels, image
        assert "Kitty:" in summary[0].content and "Next starter" in summary[0].content
        second = await play_hand(w, by_typing, scanner=scanner)
        assert second == 2
        assert scanner.checked > 50
        records = await w.bot.store.match_hands((await w.doc()).match_key or "")
        assert [h.hand_no for h in records if h.result_side] == [1, 2]
        assert all(len(h.kitty) == 8 for h in records if h.result_side)
    assert public_inputs and all(kind is PublicView for kind in public_inputs)
    for record in caplog.records:
        if record.levelno >= logging.INFO:
            text = record.getMessage()
            assert not PRETTY.search(text) and not CANONICAL.search(text), text


async def test_the_table_messages_buttons_stay_the_same_while_computers_play(
        tmp_path: Path) -> None:
    """Issue 38 item 9: three "published preview revision is stale" during ordinary play.
    The lost clicks were on the table message (My hand, Tricks …): its buttons' ids carried
    the table's step, so every computer move changed them, and the local page refuses a
    click on a message whose components changed since it was drawn (on Discord, the
    client redraws them). The buttons stay the same now; only the text moves."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        for _ in range(200):
            match = await w.match()
            if match.phase is Phase.PLAYING and 0 in seats_to_act(match):
                break
            if 0 in seats_to_act(match):
                await by_panel(w, 0)
            else:
                await w.env.advance_time(2)
        steps, shown = [], []
        for _ in range(3):  # alice plays; the computers answer
            steps.append((await w.doc()).step)
            shown.append([[c.custom_id for c in row.children]
                          for row in w.table_message().components])
            if (await w.match()).phase is not Phase.PLAYING:
                break
            await by_panel(w, 0)
            for _ in range(20):
                if 0 in seats_to_act(await w.match()):
                    break
                await w.env.advance_time(2)
        assert len(set(steps)) > 1, steps  # the table moved on …
        assert all(ids == shown[0] for ids in shown), shown  # … its buttons did not
        assert any("myhand" in (i or "") for i in shown[0][0])
