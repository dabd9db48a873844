"""Panel and table edits upload a picture only when it changed: an edit whose picture the
message carries already keeps that attachment (Discord's ``attachments: [{id}]``); a
changed picture is uploaded; a restarted bot (nothing remembered) uploads once more; an
attachment Discord no longer knows is uploaded after all."""

from __future__ import annotations

from pathlib import Path

from botkit import World, assert_ok, by_panel, components, find, seats_to_act, world
from simcord.actors import MemberActor

from bot.ui import replies
from engine.game import Phase


def picture_ids(w: World, user: MemberActor) -> list[int]:
    return [a.id for a in w.dm_panel(user).attachments]


async def refresh(w: World, user: MemberActor) -> None:
    panel = w.dm_panel(user)
    button = find(panel, "refresh")
    assert button is not None, panel.content
    assert_ok(await user.user.click(panel, custom_id=button.custom_id))
    await w.bot.publisher.idle()


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
        held = replies._held(w.bot._connection)
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
        mine = (await w.doc()).seat_of(alice.id)
        for _ in range(80):
            match = await w.match()
            if match.phase is Phase.PLAYING and seats_to_act(match) == [mine]:
                break
            await by_panel(w, mine)
        else:
            raise AssertionError("never Alice's turn to play")
        await w.bot.publisher.idle()
        before = picture_ids(w, alice)
        panel = w.dm_panel(alice)
        select = next(c for c in components(panel) if ":sel:" in (c.custom_id or ""))
        assert_ok(await alice.user.select(panel, [select.options[0].value],
                                          custom_id=select.custom_id))
        after = picture_ids(w, alice)
        assert len(after) == 1 and after != before
        assert not w.env.errors, w.env.errors
