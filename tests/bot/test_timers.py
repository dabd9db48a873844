"""Timers: declaration windows close on time; when the turn timer runs out the computer
plays for the seat and the table is told; two misses in a row put the seat on autopilot
until the player presses I'm back."""

from __future__ import annotations

from pathlib import Path

from botkit import World, by_panel, find, world

from engine.game import Phase


async def human_turn(w: World) -> bool:
    match = await w.match()
    return match.phase in (Phase.BURYING, Phase.PLAYING) and match.public_view().turn == 0


async def test_timeouts_autopilot_and_im_back(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1, users=2, hand_pause=30) as w:
        alice, bob = w.users
        await w.open_table(1, turn_timer=30, declare_window=10)
        await w.start()
        # Alice never answers: each declaration window closes on its timer.
        for _ in range(40):
            match = await w.match()
            if match.phase is not Phase.DECLARING:
                break
            assert match.public_view().awaiting == (0,)  # computers answered at once
            await w.env.advance_time(11)
        match = await w.match()
        assert match.phase in (Phase.BURYING, Phase.PLAYING)
        doc = await w.doc()
        assert doc.seat(0).misses == 0  # a closed window is not a missed turn
        # Play until it is Alice's turn, then let the timer run out twice.
        misses = 0
        for _ in range(60):
            if await human_turn(w):
                before = (await w.match()).public_view().played
                await w.env.advance_time(31 if (await w.match()).phase is Phase.PLAYING
                                         else 61)
                misses += 1
                doc = await w.doc()
                if misses == 1:
                    after = (await w.match()).public_view().played
                    assert len(after) > len(before) or (await w.match()).phase is \
                        Phase.PLAYING
                    assert doc.seat(0).misses == 1 and not doc.seat(0).autopilot
                    assert "Time's up: the computer played for alice" in \
                        w.table_message().content
                else:
                    break
            else:
                raise AssertionError("computers should have played at once")
        doc = await w.doc()
        assert doc.seat(0).autopilot
        table = w.table_message()
        assert "On autopilot: alice" in table.content
        # The computer now plays Alice's cards at once: the hand ends by itself.
        match = await w.match()
        assert match.phase is Phase.BETWEEN_HANDS
        back = find(table, "back")
        assert back is not None and "alice" in back.label
        result = await bob.click(table, custom_id=back.custom_id)
        said = result.response.content or ""
        assert result.ephemeral and "belongs to the seat of alice" in said
        result = await alice.click(table, custom_id=back.custom_id)
        assert "Welcome back" in (result.response.content or "")
        doc = await w.doc()
        assert not doc.seat(0).autopilot and doc.seat(0).misses == 0
        # The next hand (dealt when the Ready check's 60 s run out): Alice decides again
        # (her window waits for her).
        await w.env.advance_time(61)
        match = await w.match()
        assert match.hand_no == 2 and match.public_view().awaiting == (0,)
        await by_panel(w, 0)
