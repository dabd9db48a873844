"""What one Play press costs (issue 11): the table is read from the database at most once,
the match parsed at most once, and the move saved once: the message id of a new DM panel
is kept in memory and written with the table's next save (or at shutdown).
tests/bot/bench_play_press.py measures it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botkit import by_panel, components, find, seats_to_act, world

from bot.core.table import TableDoc
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
            assert loads <= 1 and len(parses) <= 1 and saves == 1, (loads, parses, saves)
            pressed += 1
            if pressed == 8:
                break
        assert pressed == 8


async def test_a_new_panel_id_is_written_with_the_next_save(tmp_path: Path) -> None:
    # A turn is a new DM panel when it pings (``TURN_PING_IDLE`` 0: every turn) and no
    # click token can tell the player (none kept here; issue 36).
    async with world(tmp_path, humans=4, turn_ping_idle=0.0) as w:
        w.bot.app.access.seen = None
        await w.open_table(4, turn_timer=0)
        await w.start()
        repository = w.bot.service.repository
        for _ in range(200):  # play until the first card of the hand is led
            match = await w.match()
            if match.phase is Phase.PLAYING and match.public_view().played:
                break
            await by_panel(w, seats_to_act(match)[0])
        await w.bot.publisher.idle()
        turn = (await w.match()).public_view().turn
        assert turn is not None
        panel = w.dm_panel(await w.user_of(turn))  # sent as a new message for this turn
        found = await repository.find(w.table_id)
        assert found is not None and found[1].seat(turn).panel_message == panel.id
        assert (await w.doc()).seat(turn).panel_message != panel.id  # not saved on its own

        await by_panel(w, turn)  # the next move's save writes it along
        await w.bot.publisher.idle()
        assert (await w.doc()).seat(turn).panel_message == panel.id

        after = (await w.match()).public_view().turn
        assert after is not None
        panel = w.dm_panel(await w.user_of(after))
        assert (await w.doc()).seat(after).panel_message != panel.id
        await repository.flush_meta()  # shutdown
        assert (await w.doc()).seat(after).panel_message == panel.id


async def test_a_later_update_meta_wins_over_a_deferred_one(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        repository = w.bot.service.repository

        def closed(doc: TableDoc) -> None:
            doc.seat(0).dm_closed = True

        def opened(doc: TableDoc) -> None:
            doc.seat(0).dm_closed = False
        repository.defer_meta(w.table_id, closed)
        await repository.update_meta(w.table_id, opened)  # saved now, after the deferred one
        assert (await w.doc()).seat(0).dm_closed is False
        repository.forget(w.table_id)  # read again from storage: the same
        found = await repository.find(w.table_id)
        assert found is not None and found[1].seat(0).dm_closed is False
