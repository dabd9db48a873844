"""The presentation policy executed (issue 36), counted in REST calls by kind over whole
hands played in SimCord: a person's DM panel follows their own moves and turns through
their clicks' tokens (free of Discord's global limit); a new hand's panel is the one DM
message sent; turn pings (when idle) are follow-ups through the token; two people's
panels are not redrawn on each other's moves."""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

from botkit import World, by_panel, play_hand, world

from bot.runtime.budget import Priority, current_priority

DM_CHANNEL = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?")


def kinds(w: World, calls: list[Any]) -> Counter[str]:
    """The calls by kind: ``send dm``, ``edit dm``, ``send channel``, ``edit channel``
    (counted against the global limit) and ``token`` (interaction endpoints: free)."""
    dms = {u.user.dm_channel.id for u in w.users if u.user.dm_channel is not None}
    out: Counter[str] = Counter()
    for call in calls:
        head = call.path.split("/")[1]
        if head in ("interactions", "webhooks"):
            out["token"] += 1
            continue
        found = DM_CHANNEL.fullmatch(call.path)
        if found is None:
            out[f"{call.method} other"] += 1
            continue
        where = "dm" if int(found[1]) in dms else "channel"
        verb = {"POST": "send", "PATCH": "edit", "DELETE": "delete"}[call.method]
        out[f"{verb} {where}"] += 1
    return out


async def a_hand(w: World) -> Counter[str]:
    mark = len(w.env.http_requests)
    await play_hand(w, by_panel)
    await w.bot.publisher.idle()
    return kinds(w, list(w.env.http_requests[mark:]))


async def test_one_person_plays_a_hand_with_one_dm_sent(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        mark = len(w.env.http_requests)
        await w.start()
        await w.bot.publisher.idle()
        dealt = kinds(w, list(w.env.http_requests[mark:]))
        assert dealt["send dm"] == 1  # the new hand's panel, with its ping
        assert "follows every move" in w.dm_panel(w.users[0]).content  # said once, there
        played = await a_hand(w)
        # Her moves, her turns and the hand's end: all through her clicks' tokens.
        assert played["send dm"] == 0 and played["edit dm"] == 0, played
        assert played["token"] > 0
        assert not w.env.errors, w.env.errors


async def test_two_people_do_not_redraw_each_others_panels(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        await w.bot.publisher.idle()
        played = await a_hand(w)
        # One edit at most: a declaration shown to the other person, asked to answer the
        # same window, before any click of theirs gave a token.
        assert played["send dm"] == 0 and played["edit dm"] <= 1, played
        assert not w.env.errors, w.env.errors


async def test_an_idle_turn_pings_through_the_token(tmp_path: Path) -> None:
    """``TURN_PING_IDLE`` 0: every turn pings; each ping is a follow-up through the
    player's latest click (free), the one before it deleted the same way."""
    async with world(tmp_path, humans=1, turn_ping_idle=0.0) as w:
        await w.open_table(1)
        await w.start()
        await w.bot.publisher.idle()
        alice = w.users[0]
        mark = len(w.env.http_requests)
        played = await a_hand(w)
        calls = w.env.http_requests[mark:]
        pings = [c for c in calls if c.method == "POST" and c.path.split("/")[1] == "webhooks"
                 and f"<@{alice.id}>" in str((c.json or {}).get("content", ""))]
        assert pings
        assert all("your panel is just above" in c.json["content"] for c in pings)
        assert played["send dm"] == 0 and played["edit dm"] == 0, played
        assert not w.env.errors, w.env.errors


async def test_counted_calls_carry_their_priority(tmp_path: Path, monkeypatch: Any) -> None:
    """Every call Discord counts is marked for the REST budget: a new hand's DM panel, its
    table message and turn notices ``NOTICE``, the table message's edits ``TABLE``."""
    seen: list[tuple[str, str, int | None, Priority]] = []
    async with world(tmp_path, humans=1) as w:
        http = type(w.bot.http)  # SimCord's transport, discord.py's HTTPClient above it
        original = http.request

        async def request(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            seen.append((route.method, route.path, route.channel_id, current_priority()))
            return await original(self, route, *args, **kwargs)

        monkeypatch.setattr(http, "request", request)
        # no token carries the channel's messages: the table message goes by channel id
        monkeypatch.setattr(w.bot.publisher.carriers, "life", timedelta(0))
        await w.open_table(1)
        mark = len(seen)
        await w.start()
        await w.bot.publisher.idle()
        dm = w.users[0].user.dm_channel.id
        table = w.channel.id
        sends = [(m, p, c, q) for m, p, c, q in seen[mark:]
                 if p.startswith("/channels/{channel_id}/messages")]
        assert ("POST", dm, Priority.NOTICE) in {(m, c, q) for m, _, c, q in sends}
        posts = {q for m, _, c, q in sends if c == table and m == "POST"}
        assert posts == {Priority.NOTICE}  # the new hand's table message, with its panels
        assert {q for m, _, c, q in sends if c == table and m == "PATCH"} <= {Priority.TABLE}
        assert not w.env.errors, w.env.errors
