"""What a new player met on a walk through fresh games (issue 38, "you are the first
user"), as the bot shows it: a panel put on autopilot stops saying "Your turn"; a turn
ping carries My hand; a panel at a hand's end says how the next is dealt; the friend call
first offers a call that can find a friend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from botkit import World, assert_ok, by_panel, find, play_hand, world

from bot.core.calls import CallDraft
from bot.services.players import suggest_calls
from bot.ui.calling import calling
from engine.game import Phase
from tests.ai.test_friends_ai_puzzles import table
from tests.bot.test_ephemeral_panel import by_my_hand


async def _miss_twice(w: World) -> None:
    """Let alice's (seat 0's) turn timer run out on two turns in a row: autopilot."""
    for _ in range(40):
        match = await w.match()
        if match.phase is not Phase.DECLARING:
            break
        await w.env.advance_time(11)
    for _ in range(4):
        if (await w.doc()).seat(0).autopilot:
            return
        match = await w.match()
        assert match.public_view().turn == 0, "computers play at once"
        await w.env.advance_time(31 if match.phase is Phase.PLAYING else 61)
    assert (await w.doc()).seat(0).autopilot


async def test_a_panel_put_on_autopilot_says_so_and_stops_saying_your_turn(
        tmp_path: Path) -> None:
    """Two missed turns put alice on autopilot. Her DM panel, last drawn as "Your turn
    (time's up in …)" with her cards to pick, is drawn once more: the computer plays for
    her, **I'm back** brings her back, and nothing on it may be played."""
    async with world(tmp_path, humans=1, users=1, hand_pause=30) as w:
        alice = w.users[0]
        await w.open_table(1, turn_timer=30, declare_window=10)
        await w.start()
        await _miss_twice(w)
        await w.env.settle()
        _assert_on_autopilot(w.dm_panel(alice))


def _assert_on_autopilot(panel: Any) -> None:
    content = panel.content or ""
    assert "The computer is playing for you" in content, content
    assert "Your turn" not in content, content
    play = find(panel, "play")
    assert play is None or play.disabled, content


async def test_a_my_hand_panel_put_on_autopilot_says_so(tmp_path: Path) -> None:
    """The same on the ``My hand`` panel, the one local play shows: opened on alice's
    turn, it is redrawn when her second missed turn puts her on autopilot."""
    async with world(tmp_path, humans=1, users=1, hand_pause=30) as w:
        alice = w.users[0]
        await w.bot.store.set_user_settings(alice.id, panel="ephemeral")
        await w.open_table(1, turn_timer=30, declare_window=10)
        await w.start()
        for _ in range(40):
            if (await w.match()).phase is not Phase.DECLARING:
                break
            await w.env.advance_time(11)
        panel = (await alice.click(w.table_message(), label="My hand")).response
        assert panel is not None and panel.ephemeral
        await _miss_twice(w)
        await w.bot.publisher.idle()
        _assert_on_autopilot(panel)


async def test_a_turn_ping_in_the_channel_carries_my_hand(tmp_path: Path) -> None:
    """"@alice, it is your turn … Press **My hand**": the ping carries that button, since
    the table message (and its My hand) may be a screen or more above it; pressed, it
    answers with her panel, her turn on it."""
    async with world(tmp_path, humans=1, users=1) as w:
        alice = w.users[0]
        await w.bot.store.set_user_settings(alice.id, panel="ephemeral")
        await w.open_table(1, turn_timer=0)
        await w.start()
        await w.env.settle()
        pings = [m for m in w.public_messages()
                 if f"<@{alice.id}>" in (m.content or "") and "your turn" in m.content]
        assert pings, [m.content for m in w.public_messages()]
        button = find(pings[-1], "myhand")
        assert button is not None and not button.disabled, pings[-1].components
        panel = (await alice.click(pings[-1], custom_id=button.custom_id)).response
        assert panel is not None and panel.ephemeral
        assert find(panel, "pass") is not None or "Your turn" in panel.content, panel.content


async def test_a_turn_ping_is_gone_once_its_player_has_acted(tmp_path: Path) -> None:
    """"@alice, it is your turn" does not stay in the channel after her turn (it stayed
    until her next ping: after the hand's last card, into the next hand): once she has
    acted it is deleted, so none is left when the hand is over. ``TURN_PING_IDLE`` 0:
    every turn of hers pings."""
    async def through_my_hand(w: World, seat: int) -> None:
        await by_my_hand(w, await w.user_of(seat))

    async with world(tmp_path, humans=1, users=1, turn_ping_idle=0.0) as w:
        alice = w.users[0]
        await w.bot.store.set_user_settings(alice.id, panel="ephemeral")
        await w.open_table(1, turn_timer=0)
        await w.start()
        await w.env.settle()
        assert _pings(w, alice.id), "her first turn pings"
        await play_hand(w, through_my_hand)
        await w.bot.publisher.idle()
        await w.env.settle()
        assert (await w.match()).phase is Phase.BETWEEN_HANDS
        assert _pings(w, alice.id) == [], _pings(w, alice.id)
        assert not w.env.errors, w.env.errors


def _pings(w: World, user_id: int) -> list[str]:
    return [m.content for m in w.public_messages()
            if f"<@{user_id}>" in (m.content or "") and "your turn" in m.content]


async def test_a_panel_at_the_end_of_a_hand_says_how_the_next_is_dealt(tmp_path: Path) -> None:
    """The hand is over: the panel says the next one comes with **Ready** (it read "the
    next one is dealt soon" while the deal waited for that button)."""
    async with world(tmp_path, humans=1, users=1, hand_pause=30) as w:
        await w.open_table(1)
        await w.start()
        await play_hand(w, by_panel)
        await w.env.settle()
        assert (await w.match()).phase is Phase.BETWEEN_HANDS
        content = w.dm_panel(w.users[0]).content or ""
        assert "**Ready**" in content and "soon" not in content, content


def test_the_friend_call_first_offers_a_card_someone_else_holds() -> None:
    """The call selects' first pick, what a new starter adds with one press: it was the
    first legal call, "the 1st A♥", also for a starter holding both A♥ (a call their own
    ace answers: void, F4). Now it is the call a computer starter would make: a copy the
    starter's own cards cannot be."""
    hands = ["AH AH AC AC AD AD KH 9H 8C 5D 6S 7S 8S 9S 10S JS QS KS BJ RJ",
             "", "", "", ""]
    match = table(hands, "2S", 0, phase=Phase.CALLING)
    view = match.view_for(0)
    pick = calling(view, CallDraft()).choices.pick
    assert pick is not None
    assert view.hand.count(pick.card) < pick.copy, pick
    assert pick == suggest_calls(view)[0]


async def test_clear_is_pressable_only_with_cards_picked(tmp_path: Path) -> None:
    """**Clear** looked pressable with nothing picked (and did nothing): it is disabled
    until a card is picked, then clears the pick."""
    async with world(tmp_path, humans=1, users=1) as w:
        alice = w.users[0]
        await w.open_table(1, turn_timer=0)
        await w.start()
        for _ in range(60):
            match = await w.match()
            if match.phase is Phase.PLAYING and match.public_view().turn == 0:
                break
            await by_panel(w, 0)
        panel = w.dm_panel(alice)
        clear, quick = find(panel, "clear"), find(panel, "quick")
        assert clear is not None and clear.disabled, panel.content
        assert_ok(await alice.user.select(panel, [quick.options[0].value],
                                          custom_id=quick.custom_id))
        panel = w.dm_panel(alice)
        clear = find(panel, "clear")
        assert clear is not None and not clear.disabled, panel.content
        assert_ok(await alice.user.click(panel, custom_id=clear.custom_id))
        panel = w.dm_panel(alice)
        assert find(panel, "clear").disabled and "Nothing selected" in panel.content
