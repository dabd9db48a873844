"""Pace and panels (issue 12 items 3, 6, 7): a lost DM panel is re-sent once, then
forgotten (one log line, not one a move); each hand gets a new panel message and the old
one is closed as a past hand; a superseded panel says so and shows no countdown; the
first hand is announced and waits a moment; between hands a Ready check."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest
from botkit import (
    SUMMARY_RE,
    World,
    by_typing,
    components,
    find,
    play_hand,
    ready_all,
    reply_texts,
    seats_to_act,
    world,
)

from bot.core.errors import UserFacingError
from engine.game import Phase


async def typed_moves(w: World, count: int) -> None:
    """Up to `count` decisions of the humans in this hand, typed (no DM panel needed)."""
    hand_no = (await w.match()).hand_no
    for _ in range(count):
        match = await w.match()
        if match.hand_no != hand_no or match.phase not in (Phase.DECLARING, Phase.BURYING,
                                                           Phase.PLAYING):
            return
        doc = await w.doc()
        humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
        assert humans, match.phase
        await by_typing(w, humans[0])


def panel_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.WARNING and "DM panel" in r.getMessage()]


async def test_lost_dm_channel_is_logged_once_not_every_move(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """After a restart the stored DM channel no longer works (404): the panel is tried
    once more on a fresh DM, then forgotten for the hand; the game goes on."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        alice = w.users[0]
        dm = alice.user.dm_channel
        assert dm is not None
        await w.restart()
        w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=404, code=10003,
                           message="Unknown Channel", times=None)
        w.env.inject_error("PATCH", f"/channels/{dm.id}/messages/*", status=404, code=10008,
                           message="Unknown Message", times=None)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="tractor"):
            await typed_moves(w, 30)
        lines = [line for line in panel_warnings(caplog) if "hand=1 " in line]
        assert len(lines) == 1, panel_warnings(caplog)  # at most one more in the next hand


async def test_deleted_panel_message_is_sent_again(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        alice = w.users[0]
        doc = await w.doc()
        old = doc.seat(0).panel_message
        assert old is not None
        dm = alice.user.dm_channel
        w.env.inject_error("PATCH", f"/channels/{dm.id}/messages/{old}", status=404,
                           code=10008, message="Unknown Message", times=None)
        await typed_moves(w, 3)
        doc = await w.doc()
        assert doc.seat(0).panel_message not in (None, old)


async def test_each_hand_gets_a_new_panel_and_the_old_one_shows_the_end(tmp_path: Path) -> None:
    """A new hand's panel is a new DM; the last one shows its hand's end (issue 36: not
    edited again to say it is closed)."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        alice = w.users[0]
        first = (await w.doc()).seat(0).panel_message
        await play_hand(w, by_typing)
        await ready_all(w)
        doc = await w.doc()
        assert (await w.match()).hand_no == 2
        newest = w.dms(alice)[-1]
        assert newest.id == doc.seat(0).panel_message != first
        assert components(newest)
        last = next(m for m in w.dms(alice) if m.id == first)
        assert not components(last)  # shown at the end of its hand, by the hand's end
        assert "<t:" not in last.content


def summary_message(w: World) -> discord.Message:
    """The newest hand summary in the channel."""
    return next(m for m in reversed(w.public_messages()) if SUMMARY_RE.search(m.content))


async def test_ready_check_between_hands(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        alice, bob = w.users[:2]
        await play_hand(w, by_typing)
        match = await w.match()
        assert match.phase is Phase.BETWEEN_HANDS and match.hand_no == 1
        summary = summary_message(w)
        ready = find(summary, "ready")
        assert ready is not None and ready.label == "Ready"
        assert "when everyone is ready" in w.table_message().content
        await w.env.advance_time(45)  # still reading the summary: no deal yet
        assert (await w.match()).hand_no == 1
        # Someone not seated is refused, and changes nothing.
        result = await w.spectator.click(summary, custom_id=ready.custom_id)
        assert result.ephemeral and "not seated" in reply_texts(result)[0]
        result = await alice.click(summary, custom_id=ready.custom_id)
        assert "You're ready. Waiting for" in reply_texts(result)[0]
        assert bob.mention in reply_texts(result)[0]
        version = await w.version()
        await alice.click(summary, custom_id=ready.custom_id)  # twice: nothing changes
        assert await w.version() == version
        # The ready state survives a restart.
        await w.restart()
        doc = await w.doc()
        assert doc.ready == [0] and doc.unready == [1]
        result = await bob.click(summary_message(w), custom_id=ready.custom_id)
        assert "Everyone is ready" in reply_texts(result)[0]
        match = await w.match()
        assert match.hand_no == 2 and match.phase is Phase.DECLARING
        assert find(summary_message(w), "ready") is None  # the button went with the deal
        # Too late now: nothing is waiting to be dealt.
        with pytest.raises(UserFacingError) as refused:
            await w.bot.service.ready(w.table_id, alice.id)
        assert refused.value.key == "error.no_deal_pending"


async def test_the_last_one_awaited_leaves_and_the_hand_is_dealt(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        alice, bob = w.users[:2]
        await play_hand(w, by_typing)
        summary = summary_message(w)
        await alice.click(summary, custom_id=find(summary, "ready").custom_id)
        assert (await w.match()).hand_no == 1
        await bob.slash(w.channel, "tractor leave")
        assert (await w.match()).hand_no == 2


async def test_ready_check_times_out_as_the_table_set(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, ready_timeout=30)
        await w.start()
        await play_hand(w, by_typing)
        assert (await w.match()).phase is Phase.BETWEEN_HANDS
        await w.env.advance_time(29)
        assert (await w.match()).hand_no == 1
        await w.env.advance_time(2)
        assert (await w.match()).hand_no == 2


async def test_no_limit_waits_for_everyone(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, ready_timeout=0)
        result = await w.users[0].slash(w.channel, "tractor rules")
        assert "Ready check between hands: at most no limit" in reply_texts(result)[0]
        await w.start()
        await play_hand(w, by_typing)
        await w.env.advance_time(3600)
        match = await w.match()
        assert match.phase is Phase.BETWEEN_HANDS and match.hand_no == 1
        await ready_all(w)
        assert (await w.match()).hand_no == 2


async def test_first_deal_is_announced_and_waits(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2, start_delay=15) as w:
        await w.open_table(2)
        await w.start()
        match = await w.match()
        assert match.hand_no == 0 and match.phase is Phase.BETWEEN_HANDS
        assert any("The deal starts <t:" in m.content for m in w.public_messages())
        assert "The deal starts" in w.table_message().content
        await w.env.advance_time(10)
        assert (await w.match()).hand_no == 0
        # Everyone ready: dealt at once.
        for user in w.users[:2]:
            table = w.table_message()
            await user.click(table, custom_id=find(table, "ready").custom_id)
        match = await w.match()
        assert match.hand_no == 1 and match.phase is Phase.DECLARING
        # Or the delay runs out.
    async with world(tmp_path / "again", humans=1, start_delay=15) as w:
        await w.open_table(1)
        await w.start()
        await w.env.advance_time(16)
        assert (await w.match()).hand_no == 1


async def test_a_superseded_my_hand_panel_is_deleted_through_its_token(
        tmp_path: Path) -> None:
    """The walk of issue 38: each ``My hand`` press left an "out of date" stub above the
    live panel (about ten in a hand); the replaced panel is deleted, free of the global
    limit (its own token)."""
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, declare_window=30)
        await w.start()
        alice = w.users[0]
        await alice.click(w.table_message(), label="My hand")
        mark = len(w.env.http_requests)
        second = await alice.click(w.table_message(), label="My hand")
        new = second.followups[0] if second.followups else second.response
        assert components(new)
        await w.bot.publisher.idle()
        calls = [(c.method, c.path) for c in w.env.http_requests[mark:]]
        deleted = [path for method, path in calls if method == "DELETE"]
        assert len(deleted) == 1 and deleted[0].endswith("/messages/@original"), calls
        assert {path.split("/")[1] for _, path in calls} <= {"interactions", "webhooks"}
        assert not w.env.errors, w.env.errors


async def test_a_superseded_panel_discord_will_not_delete_says_so_and_stops_counting(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, declare_window=30)
        await w.start()
        alice = w.users[0]
        first = await alice.click(w.table_message(), label="My hand")
        old = first.followups[0] if first.followups else first.response
        assert "<t:" in old.content and components(old)
        w.env.inject_error("DELETE", "/webhooks/*/*/messages/@original", status=500,
                           times=None)
        second = await alice.click(w.table_message(), label="My hand")
        new = second.followups[0] if second.followups else second.response
        assert components(new)
        old = first.followups[0] if first.followups else first.response
        assert "out of date" in old.content and "<t:" not in old.content
        assert not components(old)
