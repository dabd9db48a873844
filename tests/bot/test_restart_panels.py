"""A DM panel sent with a move is saved with the table's next save (bot/services/repository.py
`defer_meta`), or on its own once the table has been idle `META_IDLE` seconds, and when the
bot closes (SIGINT/SIGTERM: ``TractorBot.close``). After a restart, the panel the bot edits
is the newest one, not an older one whose buttons would then be all the player has."""

from __future__ import annotations

import re
from pathlib import Path

from botkit import World, by_panel, by_typing, components, make_bot, world
from test_publish_pictures import until_my_play

from bot.services.repository import META_IDLE

IDLE = {"turn_ping_idle": 0.0}


async def newest_panel_pending(w: World) -> tuple[int, int]:
    """Alice's turn: a new DM panel, its id not saved yet. Returns (seat, panel id).

    A turn brings a new DM panel only when it pings and no click token of Alice's can
    tell her (issue 36): her clicks' tokens expired, she plays by typing, and
    ``TURN_PING_IDLE`` is 0 (`IDLE`: every turn pings)."""
    alice = w.users[0]
    await w.open_table(1)
    await w.start()
    await until_my_play(w, alice)
    seat = (await w.doc()).seat_of(alice.id)
    assert seat is not None
    before = w.dm_panel(alice).id
    w.bot.publisher._clicks.clear()  # her panel clicks' tokens expired (15 minutes)
    await by_typing(w, seat)
    await until_my_play(w, alice)
    newest = w.dm_panel(alice).id
    assert newest != before
    stored = await w.bot.store.load_table(w.table_id)
    assert stored is not None
    assert stored.doc["seats"][seat]["panel_message"] != newest  # kept for the next save
    return seat, newest


async def edits_after_a_move(w: World, seat: int) -> set[int]:
    """The DM messages the bot edits as messages after the seat's next move."""
    dm = w.dm_panel(w.users[0]).channel.id
    mark = len(w.env.http_requests)
    await by_panel(w, seat)
    await w.bot.publisher.idle()
    edited = set()
    for call in w.env.http_requests[mark:]:
        found = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", call.path)
        if call.method == "PATCH" and found and int(found[1]) == dm:
            edited.add(int(found[2]))
    return edited


async def test_closing_the_bot_saves_the_newest_panel(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1, **IDLE) as w:
        seat, newest = await newest_panel_pending(w)
        await w.bot.close()  # the process is stopped (SIGTERM)
        await w.env.restart_bot(make_bot(w.database, **w.changes))
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None
        assert stored.doc["seats"][seat]["panel_message"] == newest
        assert await edits_after_a_move(w, seat) <= {newest}
        assert not w.env.errors, w.env.errors


async def test_an_idle_table_saves_the_newest_panel_before_a_crash(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1, **IDLE) as w:
        seat, newest = await newest_panel_pending(w)
        await w.env.advance_time(META_IDLE + 1)  # the player thinks; then the bot crashes
        old = w.bot
        try:
            await w.env.restart_bot(make_bot(w.database, **w.changes))  # not closed
        finally:
            await old.close_store()
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None
        assert stored.doc["seats"][seat]["panel_message"] == newest
        edited = await edits_after_a_move(w, seat)
        assert edited <= {newest}, (edited, newest)
        assert not w.env.errors, w.env.errors



async def test_a_click_on_an_old_panel_points_to_the_newest(tmp_path: Path) -> None:
    """A DM panel a newer one replaced is not edited over REST to say so (issue 36): a
    click on it is answered through its own interaction, with a link to the newest."""
    async with world(tmp_path, humans=1, **IDLE) as w:
        _, newest = await newest_panel_pending(w)
        alice = w.users[0]
        old = [m for m in w.dms(alice) if m.id < newest and components(m)]
        assert old
        # its first list (Quick plays): its buttons are disabled off turn (Clear too, with
        # nothing picked), but a list is open to a look
        pick = next(c for c in components(old[-1])
                    if getattr(c, "options", None) and not c.disabled)
        mark = len(w.env.http_requests)
        result = await alice.user.select(old[-1], [pick.options[0].value],
                                         custom_id=pick.custom_id)
        texts = [f.content or "" for f in result.followups]
        assert any("This panel is old" in t and str(newest) in t for t in texts), texts
        paths = [c.path.split("/")[1] for c in w.env.http_requests[mark:]]
        assert set(paths) <= {"interactions", "webhooks"}, paths  # free of the global limit
        assert not w.env.errors, w.env.errors
