"""A database copied mid-match resumes (issue 6): mid-trick, the live database is backed up
with `Store.backup`; the original bot then moves on; a fresh bot started on the *copy*
(`env.restart_bot(create_bot(copy))`) is exactly at the copy point and the hand is played
from there to its end, while the original file keeps its own, later position."""

from __future__ import annotations

from pathlib import Path

from botkit import SQLITE, World, by_panel, by_typing, make_bot, play_hand, seats_to_act, world

from bot.core.table import TableDoc
from bot.storage import Store
from engine.game import Phase


def mid_trick(match: object) -> bool:
    public = match.public_view()  # type: ignore[attr-defined]
    return (public.phase is Phase.PLAYING and public.trick is not None
            and 0 < len(public.trick.plays) < 4 and public.tricks_played >= 1)


async def drive_to_mid_trick(w: World, limit: int = 300) -> None:
    for _ in range(limit):
        match = await w.match()
        if mid_trick(match):
            return
        doc = await w.doc()
        humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
        assert humans, f"nobody to act: {match.phase}"
        await by_panel(w, humans[0])
    raise AssertionError("never reached the middle of a trick")


async def test_a_copy_made_mid_trick_resumes_and_finishes_the_hand(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2, hand_pause=30, database=SQLITE(tmp_path)) as w:
        await w.open_table(2)
        await w.start()
        await drive_to_mid_trick(w)

        # ---- the copy point: the live database is backed up while the bot runs
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None
        snapshot = TableDoc.from_dict(stored.doc)
        hand_key = snapshot.hand_key
        assert hand_key is not None
        actions_at_copy = (await w.bot.store.hand_record(hand_key)).actions  # type: ignore[union-attr]
        assert len(actions_at_copy) == snapshot.action_seq
        copy = tmp_path / "copy" / "tractor-copy.sqlite3"
        info = await w.bot.store.backup(copy)
        assert info.dest == copy and copy.is_file()

        # ---- the original moves on after the copy (one more card played)
        match = await w.match()
        turn = match.public_view().turn
        assert turn is not None
        await by_panel(w, turn)
        original_seq = (await w.doc()).action_seq
        assert original_seq > snapshot.action_seq

        # ---- a fresh bot on the copy, in the same Discord
        old = w.bot
        try:
            await w.env.restart_bot(make_bot(copy, **w.changes))
        finally:
            await old.close_store()
        w.database = copy
        assert w.bot.store.path == str(copy)

        # The copy is exactly at the copy point (only the restart bookkeeping differs).
        doc = await w.doc()
        assert doc.match == snapshot.match
        assert (doc.step, doc.action_seq, doc.hand_key, doc.notes, doc.results) == (
            snapshot.step, snapshot.action_seq, snapshot.hand_key, snapshot.notes,
            snapshot.results)
        assert [s and s.user_id for s in doc.seats] == [s and s.user_id for s in snapshot.seats]
        assert doc.restored
        record = await w.bot.store.hand_record(hand_key)
        assert record is not None and record.actions == actions_at_copy
        assert "restored after a restart" in w.table_message().content
        assert mid_trick(await w.match())

        # ---- play on from that exact position to the end of the hand
        hand_no = await play_hand(w, by_typing)
        match = await w.match()
        assert match.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)
        assert match.hand_no == hand_no
        record = await w.bot.store.hand_record(hand_key)
        assert record is not None and record.result_side is not None
        assert record.actions[: len(actions_at_copy)] == actions_at_copy
        assert len(record.actions) > len(actions_at_copy)
        assert any("is over**" in (m.content or "") for m in w.public_messages())

    # The original file was never touched by the copy's bot: it is where it was left.
    original = await Store.open(tmp_path / "tractor.sqlite3")
    try:
        stored = await original.load_table(w.table_id)
        assert stored is not None
        assert TableDoc.from_dict(stored.doc).action_seq == original_seq
        rec = await original.hand_record(hand_key)
        assert rec is not None and rec.result_side is None
    finally:
        await original.close()
