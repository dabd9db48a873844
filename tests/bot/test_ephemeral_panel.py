"""The ephemeral ``My hand`` panel follows the game: when the seat's DM panel would be
refreshed (here: it becomes the player's turn), the bot edits the ephemeral panel too,
through the interaction that made it; a dead token is forgotten quietly."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from botkit import World, assert_ok, by_panel, find, seats_to_act, world
from simcord.actors import MemberActor

from bot.ui.publish import TOKEN_LIFETIME, TOKEN_MARGIN
from engine.game import Phase


async def by_my_hand(w: World, user: MemberActor) -> None:
    """One decision of `user` through a fresh ``My hand`` panel."""
    match = await w.match()
    panel = (await user.click(w.table_message(), label="My hand")).response
    assert panel is not None and panel.ephemeral

    async def press(verb: str) -> None:
        assert_ok(await user.click(panel, custom_id=find(panel, verb).custom_id))

    if match.phase is Phase.DECLARING:
        await press("pass")
    elif match.phase is Phase.BURYING:
        await press("suggest")
        await press("bury")
    else:
        quick = find(panel, "quick")
        assert_ok(await user.select(panel, [quick.options[0].value], custom_id=quick.custom_id))
        await press("play")


async def until_turn_of_other(w: World, user: MemberActor, seat: int) -> None:
    """Play (`user` at `seat` through My hand, the others through their DM panels) until
    it is the play and another human is to move."""
    for _ in range(200):
        match = await w.match()
        doc = await w.doc()
        humans = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
        if match.phase is Phase.PLAYING and humans and humans[0] != seat:
            return
        if seat in humans:
            await by_my_hand(w, user)
        else:
            await by_panel(w, humans[0])
    raise AssertionError("never reached another human's turn")


@contextlib.asynccontextmanager
async def alice_ephemeral(tmp_path: Path) -> AsyncIterator[tuple[World, MemberActor, int, int]]:
    """Alice (My hand panel only, as with DMs closed or in local play), Bob and two
    computers, on another human's turn: yields the world, Alice, her seat and Bob's."""
    async with world(tmp_path, humans=2) as w:
        alice, bob = w.users
        await w.bot.store.set_user_settings(alice.id, panel="ephemeral")
        await w.open_table(2)
        await w.start()
        doc = await w.doc()
        mine, theirs = doc.seat_of(alice.id), doc.seat_of(bob.id)
        assert mine is not None and theirs is not None
        await until_turn_of_other(w, alice, mine)
        yield w, alice, mine, theirs


async def test_my_hand_panel_follows_the_game_and_its_buttons_work(tmp_path: Path) -> None:
    async with alice_ephemeral(tmp_path) as (w, alice, mine, theirs):

        result = await alice.click(w.table_message(), label="My hand")
        panel = result.response
        assert panel is not None and panel.ephemeral
        assert "Your turn" not in panel.content and find(panel, "quick").disabled
        assert w.bot.publisher.tracked_ephemeral(w.table_id, mine) is not None

        # Bob (and the computers) play until it is Alice's turn; she clicks nothing.
        for _ in range(60):
            match = await w.match()
            if match.public_view().turn == mine:
                break
            await by_panel(w, theirs)
        match = await w.match()
        assert match.phase is Phase.PLAYING and match.public_view().turn == mine
        await w.bot.publisher.idle()
        assert "Your turn" in panel.content, panel.content  # the same ephemeral message
        quick, play = find(panel, "quick"), find(panel, "play")
        assert quick is not None and play is not None and play.disabled
        assert f":{(await w.doc()).step}:" in quick.custom_id  # current, not stale

        # Its buttons work: a quick play, then Play.
        before = len(match.view_for(mine).hand)
        assert_ok(await alice.select(panel, [quick.options[0].value],
                                     custom_id=quick.custom_id))
        play = find(panel, "play")
        assert play is not None and not play.disabled
        assert_ok(await alice.click(panel, custom_id=play.custom_id))
        match = await w.match()
        assert len(match.view_for(mine).hand) < before
        await w.bot.publisher.idle()
        assert "Your turn" not in panel.content or match.public_view().turn == mine

        # A token Discord no longer takes (50027) is dropped quietly: no error, no retry.
        # (Only the panel's token: Bob's clicks edit his DM panel through their own.)
        tracked = w.bot.publisher.tracked_ephemeral(w.table_id, mine)
        assert tracked is not None
        w.env.inject_error("PATCH", f"/webhooks/*/{tracked.token}/messages/@original",
                           status=401, code=50027, message="Invalid Webhook Token",
                           times=None)
        for _ in range(60):
            match = await w.match()
            if match.public_view().turn == mine or match.phase is not Phase.PLAYING:
                break
            await by_panel(w, theirs)
        await w.bot.publisher.idle()
        assert w.bot.publisher.tracked_ephemeral(w.table_id, mine) is None
        assert not w.env.errors, w.env.errors


async def test_an_expired_panel_token_is_not_used(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.open_table(1, turn_timer=0)  # no turn timer: the game waits for Alice
        await w.start()
        mine = (await w.doc()).seat_of(alice.id)
        assert mine is not None
        await alice.click(w.table_message(), label="My hand")
        publisher = w.bot.publisher
        tracked = publisher.tracked_ephemeral(w.table_id, mine)
        assert tracked is not None

        def edits() -> int:  # through the panel's token (a click edits through its own)
            return sum(1 for r in w.env.http_requests if r.method == "PATCH"
                       and r.path.endswith(f"/{tracked.token}/messages/@original"))

        waited = 0
        while (await w.match()).phase is Phase.DECLARING:  # the windows close on timers
            await w.env.advance_time(16)
            waited += 16
        assert edits() > 0  # the panel followed the deal while its token was good
        while waited <= TOKEN_LIFETIME - TOKEN_MARGIN:
            await w.env.advance_time(120)
            waited += 120
        assert publisher.tracked_ephemeral(w.table_id, mine) is None
        step, done = (await w.doc()).step, edits()
        # Her turns were told through the My hand panel's token, so her DM panel was not
        # edited (issue 36): a click on it redraws it, through its own interaction.
        panel = w.dm_panel(alice)
        refresh = find(panel, "refresh")
        assert refresh is not None, panel.content
        assert_ok(await alice.user.click(panel, custom_id=refresh.custom_id))
        await by_panel(w, mine)  # Alice acts on her DM panel: her panels are refreshed
        assert (await w.doc()).step > step
        assert edits() == done  # but not through the expired token
        assert not w.env.errors, w.env.errors
