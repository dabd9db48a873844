"""What one Play press costs (issue 11): the table is read from the database at most once,
the match parsed at most once, and the move saved once (plus, when a new DM panel was
posted, one save recording its message id). tests/bot/bench_play_press.py measures it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import by_panel, components, find, seats_to_act, world

from engine.game import Match, Phase


async def test_a_play_press_loads_parses_and_saves_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parses: list[int] = []
    original = Match.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: Any, data: Any) -> Match:
        parses.append(1)
        return original(cls, data)  # type: ignore[no-any-return]
    monkeypatch.setattr(Match, "from_dict", classmethod(counted))
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4, turn_timer=0)
        await w.start()
        repository = w.bot.service.repository
        pressed = 0
        for _ in range(200):
            match = await w.match()
            seat = seats_to_act(match)[0] if seats_to_act(match) else None
            if seat is None:
                break
            if match.phase is not Phase.PLAYING:
                await by_panel(w, seat)
                continue
            user = await w.user_of(seat)
            panel = w.dm_panel(user)
            if match.public_view().trick is None:  # lead one card of the first select
                select = next(c for c in components(panel) if ":sel:" in c.custom_id)
            else:
                select = find(panel, "quick")
            await user.user.select(panel, [select.options[0].value],
                                   custom_id=select.custom_id)
            await w.bot.publisher.idle()
            panel = w.dm_panel(user)
            before = dict(repository.stats)
            parses.clear()
            await user.user.click(panel, custom_id=find(panel, "play").custom_id)
            await w.bot.publisher.idle()
            loads = repository.stats["load"] - before.get("load", 0)
            saves = repository.stats["save"] - before.get("save", 0)
            assert loads <= 1 and len(parses) <= 1 and 1 <= saves <= 2, (loads, parses, saves)
            pressed += 1
            if pressed == 8:
                break
        assert pressed == 8
