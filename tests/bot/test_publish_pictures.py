"""Panel edits upload a picture only when it changed: an edit whose picture the message
carries already keeps that attachment (Discord's ``attachments: [{id}]``), a DM panel's as
an ephemeral ``My hand`` panel's; a changed picture is uploaded; a restarted bot (nothing
remembered) uploads once more; an attachment Discord no longer knows is uploaded after
all."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from botkit import World, assert_ok, by_panel, components, find, seats_to_act, world
from simcord.actors import MemberActor
from test_ephemeral_panel import alice_ephemeral

from bot.ui import edits
from engine.game import Phase


def picture_ids(w: World, user: MemberActor) -> list[int]:
    return [a.id for a in w.dm_panel(user).attachments]


async def refresh(w: World, user: MemberActor) -> None:
    panel = w.dm_panel(user)
    button = find(panel, "refresh")
    assert button is not None, panel.content
    assert_ok(await user.user.click(panel, custom_id=button.custom_id))
    await w.bot.publisher.idle()


async def until_my_play(w: World, user: MemberActor) -> None:
    """Decide for `user` with the DM panel until it is their turn to play a card."""
    mine = (await w.doc()).seat_of(user.id)
    assert mine is not None
    for _ in range(80):
        match = await w.match()
        if match.phase is Phase.PLAYING and seats_to_act(match) == [mine]:
            await w.bot.publisher.idle()
            return
        await by_panel(w, mine)
    raise AssertionError(f"never {user.name}'s turn to play")


@contextlib.asynccontextmanager
async def alice_to_play(tmp_path: Path) -> AsyncIterator[tuple[World, MemberActor]]:
    """A table of one person (Alice) and three computers, on Alice's turn to play a card."""
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.open_table(1)
        await w.start()
        await until_my_play(w, alice)
        yield w, alice


def panel_item(w: World, user: MemberActor, verb: str) -> Any:
    """The first component of `verb` on `user`'s DM panel (None if it has none)."""
    return next((c for c in components(w.dm_panel(user)) if f":{verb}:" in (c.custom_id or "")),
                None)


async def pick_first(w: World, user: MemberActor) -> list[Any]:
    """`user` picks the first card of their DM panel's first select: the calls it made."""
    panel, select = w.dm_panel(user), panel_item(w, user, "sel")
    mark = len(w.env.http_requests)
    assert_ok(await user.user.select(panel, [select.options[0].value],
                                     custom_id=select.custom_id))
    return list(w.env.http_requests[mark:])


async def test_an_unchanged_picture_is_kept_and_a_changed_one_uploaded(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.open_table(1)
        await w.start()
        await w.bot.publisher.idle()
        assert (await w.match()).phase is Phase.DECLARING
        panel = w.dm_panel(alice)
        first = picture_ids(w, alice)
        assert len(first) == 1
        await refresh(w, alice)  # the same cards: the same picture, not uploaded again
        assert w.dm_panel(alice).id == panel.id and picture_ids(w, alice) == first

        # A kept attachment Discord no longer knows: the edit uploads the picture instead.
        held = edits._held(w.bot._connection)
        held[panel.id] = held[panel.id]._replace(attachment_id=first[0] + 1)
        await refresh(w, alice)
        again = picture_ids(w, alice)
        assert len(again) == 1 and again != first and not w.env.errors
        await refresh(w, alice)
        assert picture_ids(w, alice) == again

        # A restarted bot remembers nothing: its first edit uploads, the next one keeps.
        await w.restart()
        await w.bot.publisher.idle()
        await refresh(w, alice)
        restarted = picture_ids(w, alice)
        assert len(restarted) == 1 and restarted != again
        await refresh(w, alice)
        assert picture_ids(w, alice) == restarted

        # A card picked changes the picture (the card is raised): uploaded.
        await until_my_play(w, alice)
        before = picture_ids(w, alice)
        panel = w.dm_panel(alice)
        select = next(c for c in components(panel) if ":sel:" in (c.custom_id or ""))
        assert_ok(await alice.user.select(panel, [select.options[0].value],
                                          custom_id=select.custom_id))
        after = picture_ids(w, alice)
        assert len(after) == 1 and after != before
        assert not w.env.errors, w.env.errors


async def test_the_my_hand_panel_keeps_its_picture_when_the_turn_comes(tmp_path: Path) -> None:
    async with alice_ephemeral(tmp_path) as (w, alice, mine, theirs):
        panel = (await alice.click(w.table_message(), label="My hand")).response
        assert panel is not None and panel.ephemeral and "Your turn" not in panel.content
        first = [a.id for a in panel.message.attachments]
        assert len(first) == 1
        for _ in range(60):  # Bob and the computers play; Alice's cards stay the same
            match = await w.match()
            if match.public_view().turn == mine:
                break
            await by_panel(w, theirs)
        await w.bot.publisher.idle()
        assert "Your turn" in panel.content, panel.content  # edited: the turn came
        assert [a.id for a in panel.message.attachments] == first  # not uploaded again
        assert not w.env.errors, w.env.errors
