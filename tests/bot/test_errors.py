"""Clear answers and an unchanged state: wrong user, wrong turn, stale button, garbage card
text, illegal play, DMs closed, double click (in Discord and at the service level)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from botkit import World, by_panel, components, find, forge, seats_to_act, world

from bot.core.errors import UserFacingError
from engine.actions import Play
from engine.game import Phase
from engine.trump import Trump


def text_of(result: object) -> str:
    parts = []
    response = getattr(result, "response", None)
    if response is not None:
        parts.append(response.content or "")
    parts += [f.content or "" for f in getattr(result, "followups", [])]
    return "\n".join(parts)


async def snapshot(w: World) -> tuple[int, object]:
    doc = await w.doc()
    return await w.version(), doc.match


async def until_playing(w: World) -> None:
    for _ in range(100):
        match = await w.match()
        if match.phase is Phase.PLAYING:
            return
        doc = await w.doc()
        seat = next(s for s in seats_to_act(match) if doc.seat(s).user_id is not None)
        await by_panel(w, seat)
    raise AssertionError("never reached the play")


async def test_wrong_user_wrong_turn_garbage_illegal_stale_double(tmp_path: Path) -> None:
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4)
        spectator = w.spectator
        assert spectator is not None
        # wrong user: a spectator presses the table's buttons
        result = await spectator.click(w.table_message(), label="Start")
        assert "not seated" in text_of(result) and result.ephemeral
        await w.start()
        result = await spectator.click(w.table_message(), label="My hand")
        assert result.ephemeral and "not seated" in text_of(result)
        before = await snapshot(w)
        result = await spectator.slash(w.channel, "tractor play", cards="AS")
        assert "not seated" in text_of(result)
        assert await snapshot(w) == before

        # stale button: a Pass button (on an ephemeral panel) of a window that has closed,
        # clicked before the panel's refresh arrived (the race is held open: no refresh).
        match = await w.match()
        seat = seats_to_act(match)[0]
        user = await w.user_of(seat)
        shown = await user.click(w.table_message(), label="My hand")
        old_panel = shown.response
        old_pass = find(old_panel, "pass")
        publisher = w.bot.publisher
        publisher.refresh_ephemeral = lambda table_id, seat: None  # type: ignore[method-assign]
        await w.env.advance_time(16)  # the window times out: batch 2
        del publisher.refresh_ephemeral
        before = await snapshot(w)
        result = await user.click(old_panel, custom_id=old_pass.custom_id)
        assert "moved on" in text_of(result) and "fresh panel" in text_of(result)
        assert await snapshot(w) == before
        assert (await w.match()).public_view().batch == 2

        # Its turns are told through its latest token, the My hand panel's (issue 36): its
        # DM panel is redrawn by a click on it.
        panel = w.dm_panel(user)
        refresh = find(panel, "refresh")
        assert refresh is not None
        await user.user.click(panel, custom_id=refresh.custom_id)
        await until_playing(w)
        match = await w.match()
        turn = match.public_view().turn
        assert turn is not None
        mover = await w.user_of(turn)
        other = await w.user_of((turn + 1) % 4)

        # wrong turn: the engine's reason, nothing changes
        before = await snapshot(w)
        card = str(match.view_for((turn + 1) % 4).hand[0])
        result = await other.slash(w.channel, "tractor play", cards=card)
        assert result.ephemeral and "not your turn" in text_of(result).lower()
        assert await snapshot(w) == before

        # garbage card text
        result = await mover.slash(w.channel, "tractor play", cards="hello world")
        assert result.ephemeral and "can't read those cards" in text_of(result)
        result = await mover.slash(w.channel, "tractor play", cards="ZS")
        assert "'ZS' is not a card" in text_of(result)
        assert await snapshot(w) == before

        # double click: the same play sent from the ephemeral panel and the DM panel (the
        # ephemeral panel's refresh has not arrived yet: the race is held open)
        shown = (await mover.click(w.table_message(), label="My hand")).response
        quick = find(shown, "quick")
        await mover.select(shown, [quick.options[0].value], custom_id=quick.custom_id)
        publisher.refresh_ephemeral = lambda table_id, seat: None  # type: ignore[method-assign]
        panel = w.dm_panel(mover)
        quick = find(panel, "quick")
        await mover.user.select(panel, [quick.options[0].value], custom_id=quick.custom_id)
        panel = w.dm_panel(mover)
        await mover.user.click(panel, custom_id=find(panel, "play").custom_id)
        after_first = await snapshot(w)
        assert after_first != before
        del publisher.refresh_ephemeral
        result = await mover.click(shown, custom_id=find(shown, "play").custom_id)
        assert "moved on" in text_of(result)
        assert await snapshot(w) == after_first
        trick = (await w.match()).public_view().trick
        assert trick is not None and len(trick.plays) == 1

        # illegal play: a follower plays off-suit while holding the led suit
        illegal = None
        for _ in range(200):
            match = await w.match()
            public = match.public_view()
            if public.phase is Phase.PLAYING and public.trick is not None:
                view = match.view_for(public.turn)
                trump: Trump = public.trump
                suit = trump.suit_index(public.trick.plays[0][0])
                held = [c for c in view.hand if trump.suit_index(c) == suit]
                others = [c for c in view.hand if trump.suit_index(c) != suit]
                n = len(public.trick.plays[0])
                if len(held) >= n and others:
                    illegal = (public.turn, [others[0], *held[: n - 1]])
                    break
            await by_panel(w, seats_to_act(match)[0])
        assert illegal is not None
        seat, cards = illegal
        player = await w.user_of(seat)
        before = await snapshot(w)
        result = await player.slash(w.channel, "tractor play",
                                    cards=" ".join(str(c) for c in cards))
        assert result.ephemeral and "Not allowed" in text_of(result)
        assert "(R8)" in text_of(result)  # the engine's reason, citing the rule
        assert await snapshot(w) == before
        # the same mistake through the panel's selects and Play
        wanted = [str(c) for c in cards]
        by_select: dict[str, list[str]] = {}
        for item in components(w.dm_panel(player)):
            if ":sel:" in (item.custom_id or ""):
                for option in item.options:
                    if option.value in wanted:
                        by_select.setdefault(item.custom_id, []).append(option.value)
                        wanted.remove(option.value)
        assert not wanted, wanted
        for custom_id, values in by_select.items():
            await player.user.select(w.dm_panel(player), values, custom_id=custom_id)
        panel = w.dm_panel(player)
        assert "not allowed" in panel.content  # the panel explains before Play
        play = find(panel, "play")
        assert play.disabled and "not allowed" in play.label  # and Play is off (item 9)
        # a modified client sends the disabled Play anyway: the engine still refuses it
        result = await forge(player.user, panel, play.custom_id)
        assert "Not allowed" in text_of(result) and "(R8)" in text_of(result)
        assert await snapshot(w) == before


async def test_dms_closed_told_once_in_the_channel_and_the_game_goes_on(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        bob = w.users[1]
        dm = bob.user.dm_channel
        w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
        await w.start()
        notices = [m for m in w.public_messages() if "DMs are closed" in m.content]
        assert len(notices) == 1 and bob.mention in notices[0].content
        # Bob plays the whole hand with the ephemeral panel (My hand); still told once.
        for _ in range(300):
            match = await w.match()
            if match.hand_no > 1 or match.phase not in (Phase.DECLARING, Phase.BURYING,
                                                        Phase.PLAYING):
                break
            doc = await w.doc()
            seats = [s for s in seats_to_act(match) if doc.seat(s).user_id is not None]
            seat = seats[0]
            if (await w.user_of(seat)).id != bob.id:
                await by_panel(w, seat)
                continue
            result = await bob.click(w.table_message(), label="My hand")
            panel = result.followups[0] if result.followups else result.response
            assert panel is not None and panel.ephemeral
            public = match.public_view()
            if public.phase is Phase.DECLARING:
                await bob.click(panel, custom_id=find(panel, "pass").custom_id)
            elif public.phase is Phase.BURYING:
                await bob.click(panel, custom_id=find(panel, "suggest").custom_id)
                await bob.click(panel, custom_id=find(panel, "bury").custom_id)
            else:
                quick = find(panel, "quick")
                await bob.select(panel, [quick.options[0].value], custom_id=quick.custom_id)
                await bob.click(panel, custom_id=find(panel, "play").custom_id)
        match = await w.match()
        assert match.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER)
        notices = [m for m in w.public_messages() if "DMs are closed" in m.content]
        assert len(notices) == 1


async def test_two_clicks_at_once_apply_once(tmp_path: Path) -> None:
    async with world(tmp_path, humans=4) as w:
        await w.open_table(4)
        await w.start()
        await until_playing(w)
        match = await w.match()
        doc = await w.doc()
        turn = match.public_view().turn
        assert turn is not None
        user = await w.user_of(turn)
        cards = match.view_for(turn).hand[:1]
        service = w.bot.service
        actions_before = doc.action_seq

        async def click() -> object:
            return await service.act(w.table_id, user.id, lambda s: Play(s, cards),
                                     step=doc.step)

        results = await asyncio.gather(click(), click(), return_exceptions=True)
        await w.bot.publisher.idle()
        await w.env.settle()
        errors = [r for r in results if isinstance(r, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], UserFacingError)
        assert errors[0].key == "error.stale"
        doc = await w.doc()
        assert doc.action_seq == actions_before + 1
        record = await w.bot.store.hand_record(doc.hand_key or "")
        assert record is not None and len(record.actions) == doc.action_seq
        # and without a step (typed commands), the second is refused by the engine
        match = await w.match()
        turn = match.public_view().turn
        user = await w.user_of(turn)
        trick = match.public_view().trick
        cards = match.view_for(turn).hand[: len(trick.plays[0])] if trick else ()

        async def typed() -> object:
            return await service.act(w.table_id, user.id, lambda s: Play(s, tuple(cards)))

        results = await asyncio.gather(typed(), typed(), return_exceptions=True)
        await w.bot.publisher.idle()
        await w.env.settle()
        assert sum(1 for r in results if not isinstance(r, BaseException)) <= 1
        doc2 = await w.doc()
        assert doc2.action_seq <= doc.action_seq + 1


async def test_empty_card_text_is_refused(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        before = await snapshot(w)
        result = await w.users[0].slash(w.channel, "tractor play", cards=" , ")
        assert result.ephemeral and "at least one card" in text_of(result)
        assert await snapshot(w) == before
