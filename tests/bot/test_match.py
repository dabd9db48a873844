"""One person and three computer players play a whole match to its end."""

from __future__ import annotations

from pathlib import Path

from botkit import by_panel, by_typing, find, play_hand, world

from engine.game import Phase


async def test_one_person_and_three_computers_play_a_match_to_the_end(tmp_path: Path) -> None:
    # debug_start_level="A" (Config / TRACTOR_DEBUG_START_LEVEL) makes a match last a hand
    # or two: any level gained at A wins it.
    async with world(tmp_path, humans=1, debug_start_level="A") as w:
        await w.open_table(1, turn_timer=30)
        await w.start()
        hands = 0
        while (await w.match()).phase is not Phase.MATCH_OVER:
            hands += 1
            assert hands <= 8, "the match should be over by now"
            await play_hand(w, by_panel if hands % 2 else by_typing)
        match = await w.match()
        assert match.winner is not None
        winners = [m for m in w.public_messages() if "win the match!" in m.content]
        assert len(winners) == 1
        doc = await w.doc()
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None and stored.status == "lobby"
        record = await w.bot.store.match_record(doc.match_key or "")
        assert record is not None and record.winners == match.variant.partners(
            match.winner, 4)
        assert record.hands_played == hands
        table = w.table_message()
        start = find(table, "start")
        assert start is not None and not start.disabled  # a new match can start
        assert "The match is over" in table.content


async def test_the_debug_start_level_starts_every_seat_in_every_mode(tmp_path: Path) -> None:
    """TRACTOR_DEBUG_START_LEVEL: every seat of a new match starts there, a Finding Friends
    table's too (asked of the variant: a fixed team's level, else the first)."""
    async with world(tmp_path, humans=1, debug_start_level="K") as w:
        await w.open_table(1, mode="friends", players=5)
        await w.start()
        match = await w.match()
        assert [str(level) for level in match.levels] == ["K"] * 5
