"""The table message through interaction tokens (issue 36, bot/ui/carry.py): a hand's
table message is a follow-up of the in-channel click that dealt it, edited through that
click's token (free of Discord's global limit, no wait for the REST budget) while the token
lives, then by channel id (counted); a fresher click never moves it mid-hand, the next hand
is posted through the freshest. Time is SimCord's virtual clock."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from botkit import World, by_panel, play_hand, ready_all, seats_to_act, world

from bot.runtime.budget import Priority
from bot.ui import replies
from bot.ui.carry import CARRY_LIFE
from engine.game import Phase

FOLLOWUP_EDIT = re.compile(r"/webhooks/\d+/[^/]+/messages/(\d+)")
CHANNEL_EDIT = re.compile(r"/channels/(\d+)/messages/(\d+)")


def table_edits(w: World, mark: int, message_id: int) -> tuple[int, int]:
    """The table message's edits since `mark`: (through a token, by channel id)."""
    free = counted = 0
    for call in w.env.http_requests[mark:]:
        if call.method != "PATCH":
            continue
        found = FOLLOWUP_EDIT.fullmatch(call.path)
        if found is not None and int(found[1]) == message_id:
            free += 1
        found = CHANNEL_EDIT.fullmatch(call.path)
        if found is not None and int(found[2]) == message_id:
            counted += 1
    return free, counted


async def decisions(w: World, count: int) -> None:
    """`count` decisions of the people (the computers play between them)."""
    for _ in range(count):
        match = await w.match()
        doc = await w.doc()
        people = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
        assert people, match.phase
        await by_panel(w, people[0])
    await w.bot.publisher.idle()


async def dealt(w: World) -> tuple[int, Any]:
    """A one-person table started with ``Start`` in the channel: its table message's id
    and the interaction whose token carries it (None: none does)."""
    await w.open_table(1, turn_timer=0)
    await w.start()
    await w.bot.publisher.idle()
    posted = (await w.doc()).table_message
    assert posted is not None
    return posted, w.bot.publisher.carriers.carried(posted)


async def test_the_table_message_rides_the_dealing_clicks_token(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, turn_timer=0)
        mark = len(w.env.http_requests)
        await w.start()
        await w.bot.publisher.idle()
        doc = await w.doc()
        posted = doc.table_message
        assert posted is not None and w.table_message().id == posted
        assert not w.table_message().flags.ephemeral  # one public message of the channel
        sends = [c.path for c in w.env.http_requests[mark:] if c.method == "POST"]
        assert f"/channels/{w.channel.id}/messages" not in sends  # not by channel id
        carrier = w.bot.publisher.carriers.carried(posted)
        assert carrier is not None and carrier.channel_id == w.channel.id

        mark = len(w.env.http_requests)
        granted = w.bot.budget.granted[Priority.TABLE]
        await decisions(w, 3)
        free, counted = table_edits(w, mark, posted)
        assert free > 0 and counted == 0, (free, counted)
        assert w.bot.budget.granted[Priority.TABLE] == granted  # never waited for the budget

        # Past the token's life (less its margin): by channel id, the same message.
        await w.env.advance_time(CARRY_LIFE + 1.0)
        assert w.bot.publisher.carriers.carried(posted) is None
        mark = len(w.env.http_requests)
        await decisions(w, 2)
        free, counted = table_edits(w, mark, posted)
        assert free == 0 and counted > 0, (free, counted)
        assert w.bot.budget.granted[Priority.TABLE] > granted
        assert (await w.doc()).table_message == posted == w.table_message().id
        assert not w.env.errors, w.env.errors


async def test_a_fresher_click_waits_for_the_next_hand(tmp_path: Path) -> None:
    """A click in the channel mid-hand does not move the table message (its token edits
    only its own follow-ups); the next hand is posted through the Ready click's token."""
    async with world(tmp_path, humans=1) as w:
        first, dealer = await dealt(w)
        await w.users[0].click(w.table_message(), label="My hand")
        await decisions(w, 2)
        assert w.bot.publisher.carriers.carried(first) is dealer
        assert (await w.doc()).table_message == first
        await play_hand(w, by_panel)
        await w.bot.publisher.idle()
        assert (await w.match()).phase is Phase.BETWEEN_HANDS
        mark = len(w.env.http_requests)
        await ready_all(w)
        await w.bot.publisher.idle()
        second = (await w.doc()).table_message
        assert second is not None and second != first
        carrier = w.bot.publisher.carriers.carried(second)
        assert carrier is not None and carrier is not dealer
        sends = [c.path for c in w.env.http_requests[mark:] if c.method == "POST"]
        assert f"/channels/{w.channel.id}/messages" not in sends
        assert not w.env.errors, w.env.errors


async def test_a_token_that_stops_working_falls_back_to_the_channel(tmp_path: Path) -> None:
    """Discord refuses the token before its time (revoked, say): the edit goes by channel
    id in the same publish, and the token is not tried again."""
    async with world(tmp_path, humans=1) as w:
        posted, carrier = await dealt(w)
        assert carrier is not None
        del w.env.backend.interaction_tokens[carrier.token]  # Unknown Webhook from now on
        mark = len(w.env.http_requests)
        await decisions(w, 2)
        free, counted = table_edits(w, mark, posted)
        assert counted > 0 and free <= 1, (free, counted)  # one refused try at most
        assert w.bot.publisher.carriers.carried(posted) is None
        assert (await w.doc()).table_message == posted == w.table_message().id
        assert not w.env.errors, w.env.errors


async def test_a_click_still_thinking_carries_nothing(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A token whose answer was a deferred "thinking…" not known to be replaced yet is not
    used: its first follow-up would replace that ephemeral message. (The Start click's
    answer is such a deferral; here its reply does not mark the original as in.)"""
    monkeypatch.setattr(replies, "ORIGINAL_KEY", "not the mark the carriers look for")
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, turn_timer=0)
        mark = len(w.env.http_requests)
        await w.start()
        await w.bot.publisher.idle()
        assert w.bot.publisher.carriers.live(w.channel.id) is None
        posted = (await w.doc()).table_message
        assert posted is not None and w.bot.publisher.carriers.carried(posted) is None
        sends = [c.path for c in w.env.http_requests[mark:] if c.method == "POST"]
        assert f"/channels/{w.channel.id}/messages" in sends  # by channel id
        assert not w.table_message().flags.ephemeral
        assert not w.env.errors, w.env.errors
