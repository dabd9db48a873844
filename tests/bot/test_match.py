"""One person and three computer players play a whole match to its end."""

from __future__ import annotations

from pathlib import Path

from botkit import by_panel, by_typing, find, play_hand, reply_texts, world

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


async def test_the_last_table_of_a_match_stops_asking_for_start_once_a_new_one_began(
        tmp_path: Path) -> None:
    """Issue 38: the finished match's table message said "press **Start**" (its note and
    its prompt) and kept saying it above the next match's table, whose moment it was not
    any more; once the next match began it keeps its record (the points, the last trick,
    that the match is over) and asks for nothing."""
    async with world(tmp_path, humans=1, debug_start_level="A") as w:
        await w.open_table(1, turn_timer=30)
        await w.start()
        for _ in range(8):
            if (await w.match()).phase is Phase.MATCH_OVER:
                break
            await play_hand(w, by_panel)
        assert (await w.match()).phase is Phase.MATCH_OVER
        finished = w.table_message()
        assert "**Start**" in finished.content  # its moment: it asks for Start
        await w.start()
        await w.env.advance_time(5)
        old = next(m for m in w.public_messages() if m.id == finished.id)
        assert old.id != w.table_message().id
        assert "**Start**" not in old.content, old.content
        assert "The match is over" in old.content, old.content
        assert "Points taken" in old.content or "points" in old.content.lower()
        assert not old.components


async def test_the_score_sheet_says_whose_level_each_row_gives(tmp_path: Path) -> None:
    """Issue 38 (the walk): the score sheet's rows end "→ levels 3/2"; a line above them
    says whose level is which (the teams, in the rows' order)."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, turn_timer=30)
        await w.start()
        await play_hand(w, by_panel)
        user = await w.user_of(0)
        table = w.table_message()
        score = find(table, "score")
        assert score is not None
        texts = reply_texts(await user.click(table, custom_id=score.custom_id))
        sheet = next(text for text in texts if "Score sheet" in text)
        lines = sheet.splitlines()
        order = next(i for i, line in enumerate(lines) if line.startswith("Levels after"))
        assert "/" in lines[order] and "&" in lines[order], sheet
        assert lines[order + 1].startswith("Hand 1:"), sheet
