"""The bot restarts (a fresh bot object on the same database) in every phase: the game
continues exactly where it was, and buttons posted before the restart still work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from botkit import World, by_panel, find, play_hand, seats_to_act, world

from engine.game import Phase


async def restart_keeps_state(w: World) -> None:
    before = (await w.doc()).match
    await w.restart()
    doc = await w.doc()
    assert doc.match == before
    assert "restored after a restart" in w.table_message().content


async def drive_until(w: World, done: Any, limit: int = 300) -> None:
    for _ in range(limit):
        match = await w.match()
        if done(match):
            return
        doc = await w.doc()
        seats = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
        await by_panel(w, seats[0])
    raise AssertionError("never reached")


async def test_restart_in_every_phase(tmp_path: Path) -> None:
    async with world(tmp_path, humans=4, hand_pause=30) as w:
        alice, bob, carol, dave = w.users
        # ---- lobby: the table message from before the restart still works
        await w.new_table()
        await bob.click(w.table_message(), label="Join")
        lobby_message = w.table_message()
        await w.restart()
        await carol.click(lobby_message, label="Join")
        await dave.click(w.table_message(), label="Join")
        assert [s.user_id for s in (await w.doc()).seats if s] == [u.id for u in w.users]
        await alice.click(w.table_message(), label="Start")

        # ---- declaring: a DM panel sent before the restart; the window timer is re-armed
        match = await w.match()
        assert match.phase is Phase.DECLARING and match.public_view().batch == 1
        first = await w.user_of(seats_to_act(match)[0])
        old_panel = w.dm_panel(first)
        await restart_keeps_state(w)
        await first.user.click(old_panel, custom_id=find(old_panel, "pass").custom_id)
        assert first.id not in [
            (await w.doc()).seat(s).user_id for s in seats_to_act(await w.match())]
        await w.env.advance_time(16)  # the window closes on its (restored) timer
        match = await w.match()
        assert match.public_view().batch == 2

        # ---- burying
        await drive_until(w, lambda m: m.phase is Phase.BURYING)
        await restart_keeps_state(w)
        starter = (await w.match()).public_view().turn
        assert starter is not None
        await by_panel(w, starter)  # selects and Bury on the panel sent before the restart
        assert (await w.match()).phase is Phase.PLAYING

        # ---- mid-trick
        await drive_until(w, lambda m: m.phase is Phase.PLAYING and m.public_view().trick
                          is not None and len(m.public_view().trick.plays) == 2)
        await restart_keeps_state(w)
        turn = (await w.match()).public_view().turn
        assert turn is not None
        await by_panel(w, turn)
        trick = (await w.match()).public_view().trick
        assert trick is not None and len(trick.plays) == 3

        # ---- between hands: the next deal's timer survives the restart
        await play_hand(w, by_panel)
        match = await w.match()
        assert match.phase is Phase.BETWEEN_HANDS and match.hand_no == 1
        await restart_keeps_state(w)
        await w.env.advance_time(61)  # nobody pressed Ready: the table's 60 s run out
        match = await w.match()
        assert match.hand_no == 2 and match.phase is Phase.DECLARING
        # and the new hand is playable
        await by_panel(w, seats_to_act(match)[0])
