"""Turn helpers, per player (``/tractor settings``): a ping when it becomes your turn for
players of the in-channel panel, and forced plays made for you after a short pause, the
table told; both survive a restart; refused settings values change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from botkit import by_panel, by_typing, playing, reply_texts, seats_to_act, world

from bot.services.forced import forced_play
from engine.actions import Play
from engine.cards import parse_cards
from engine.game import Phase
from engine.rules import Follow, RuleSet

HANDS = ["5S 5S 3C", "9S 9S KS QS 3D", "4C 5C 6C", "7C 8C 9C"]


@pytest.mark.parametrize(("hands", "lead", "seat", "forced"), [
    (["AS", "3S", "4C", "5C"], None, 0, "AS"),  # the last card, led
    (["AS KS", "3S", "4C", "5C"], None, 0, None),  # a lead: always a choice
    (["AS", "3S 4H", "4C 5C", "5C 6C"], "AS", 1, "3S"),  # one card of the led suit
    (["AS", "3H 4H", "4C 5C", "5C 6C"], "AS", 1, None),  # void: any card
    (["5S 5S 3C", "9S 9S KS 3D", "4C 5C 6C", "7C 8C 9C"], "5S 5S", 1, "9S 9S"),  # R8: the pair
])
def test_forced_play(hands: list[str], lead: str | None, seat: int, forced: str | None) -> None:
    match = playing(hands, "2H", RuleSet())
    if lead is not None:
        match, _ = match.apply(Play(0, tuple(parse_cards(lead))))
    found = forced_play(match.view_for(seat))
    assert (None if found is None else sorted(found, key=str)) == (
        None if forced is None else sorted(parse_cards(forced), key=str))


def test_suit_only_leaves_a_choice_where_r8_forces() -> None:
    hands = ["5S 5S 3C", "9S 9S KS 3D", "4C 5C 6C", "7C 8C 9C"]
    match = playing(hands, "2H", RuleSet(follow=Follow.SUIT_ONLY))
    match, _ = match.apply(Play(0, tuple(parse_cards("5S 5S"))))
    assert forced_play(match.view_for(1)) is None


async def drive_until(w, stop) -> None:  # type: ignore[no-untyped-def]
    """Alice (the one human) acts by `by_typing` until `stop(match)`."""
    for _ in range(300):
        match = await w.match()
        if await stop(match):
            return
        seats = seats_to_act(match)
        assert seats == [0] or 0 in seats, seats
        await by_typing(w, 0)
    raise AssertionError("never stopped")


async def test_turn_ping_for_in_channel_players_and_turning_it_off(tmp_path: Path) -> None:
    """``TURN_PING_IDLE`` 0: each turn of hers pings (she types: no panel token carries
    it, so in the channel); the ping before is replaced; with ``turn_ping`` off no new
    one comes."""
    async with world(tmp_path, humans=1, turn_ping_idle=0.0) as w:
        alice = w.users[0]
        result = await alice.slash(w.channel, "tractor settings", panel="ephemeral")
        assert "Turn pings (in-channel panel): yes" in "\n".join(reply_texts(result))
        await w.open_table(1)
        await w.start()

        def pings() -> list:  # type: ignore[type-arg]
            return [m for m in w.public_messages() if "it is your turn" in (m.content or "")]

        async def playing_turn(match) -> bool:  # type: ignore[no-untyped-def]
            public = match.public_view()
            return public.phase is Phase.PLAYING and public.turn == 0 and public.played != ()

        await drive_until(w, playing_turn)
        found = pings()
        assert len(found) == 1 and f"<@{alice.id}>" in found[0].content  # one: tidied
        assert [u.id for u in found[0].mentions] == [alice.id]
        await by_typing(w, 0)
        await drive_until(w, playing_turn)
        again = pings()
        assert len(again) == 1 and again[0].id != found[0].id
        await alice.slash(w.channel, "tractor settings", turn_ping=False)
        await by_typing(w, 0)
        await drive_until(w, playing_turn)
        # no new one (hers, a channel message by id, stays until replaced: deleting it
        # when she acts would be a counted call)
        assert [m.id for m in pings()] == [again[0].id]


async def test_no_ping_for_dm_panel_players(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()

        async def playing_turn(match) -> bool:  # type: ignore[no-untyped-def]
            return match.public_view().phase is Phase.PLAYING and match.public_view().turn == 0
        await drive_until(w, playing_turn)
        assert not [m for m in w.public_messages() if "it is your turn" in (m.content or "")]


PAUSE = 10.0
"""Longer than SimCord's settling window, so only `advance_time` ends it."""


async def test_forced_plays_after_a_pause_and_across_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1, forced_pause=PAUSE) as w:
        alice = w.users[0]
        result = await alice.slash(w.channel, "tractor settings", forced_plays=True)
        assert "Forced plays made for you: yes" in "\n".join(reply_texts(result))
        await w.open_table(1)
        await w.start()
        auto = 0
        restarted = False
        for _ in range(300):
            match = await w.match()
            public = match.public_view()
            if public.phase in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER) or match.hand_no > 1:
                break
            seats = seats_to_act(match)
            cards = forced_play(match.view_for(0)) if seats == [0] else None
            if cards is None:
                await by_panel(w, seats[0])
                continue
            step = (await w.doc()).step
            await w.env.advance_time(PAUSE / 2)
            assert (await w.doc()).step == step  # a visible pause first
            if not restarted:
                await w.restart()
                restarted = True
            await w.env.advance_time(PAUSE + 1)
            auto += 1
            now = await w.match()
            if now.hand_no != match.hand_no:  # the last card: the hand is over
                assert now.hand_no == match.hand_no + 1
                break
            assert now.public_view().played[len(public.played)] == (0, cards)
            doc = await w.doc()
            assert any("played automatically" in n for n in doc.notes), doc.notes
        assert auto >= 2 and restarted
