"""Seats during a match (issue 13) and computer levels (issue 10), end to end with
SimCord: a seat taken during a hand is taken from the next hand; kick, swap, addbot and
removebot are for the creator or Manage Channels, between hands; refusals change nothing;
the records say who held each seat; everything survives a restart."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import discord
from botkit import by_panel, play_hand, reply_texts, world

from bot.core.table import DOC_VERSION
from bot.i18n import SUPPORTED, t
from bot.present.text import seat_name
from bot.render import ENGLISH, SeatLabel
from bot.render.board import trump_words
from bot.ui.panels import seat_labels
from engine.cards import Card, Rank, Suit
from engine.events import TrumpHow
from engine.game import Phase
from engine.state import Declaration
from engine.trump import Trump


def said(result: object) -> str:
    return "\n".join(reply_texts(result))


async def refused(w: object, result: object, words: str) -> None:
    text = said(result)
    assert words in text, text
    assert getattr(result, "ephemeral", True)


async def test_a_seat_taken_during_a_hand_is_taken_from_the_next_hand(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2, users=3, hand_pause=30.0) as w:
        alice, bob, carol = w.users
        await w.open_table(2)
        await w.start()
        doc = await w.doc()
        assert [s.level for s in doc.seats[2:]] == ["easy", "easy"]  # TRACTOR_COMPUTER=greedy
        assert "Bot 3 · easy" in w.table_message().content
        assert [label.name for label in seat_labels(doc, "zh_Hans")][2:] == [
            "电脑 3 · 简单", "电脑 4 · 简单"]  # the table picture's labels

        result = await carol.slash(w.channel, "tractor join")
        assert "from the next hand" in said(result)
        doc = await w.doc()
        waiting = doc.waiting[2]
        assert waiting is not None and waiting.user_id == carol.id
        assert doc.seat(2).is_computer  # the computer finishes this hand
        version = await w.version()
        result = await carol.slash(w.channel, "tractor seat take", seat=4)
        assert "already have a seat" in said(result)
        result = await w.spectator.slash(w.channel, "tractor seat take", seat=3)
        assert "Seat 3 is taken" in said(result)  # carol waits for it
        result = await w.spectator.slash(w.channel, "tractor seat take", seat=1)
        assert "Seat 1 is taken" in said(result)  # a person's seat
        assert await w.version() == version

        await bob.slash(w.channel, "tractor leave")  # mid-hand: a computer plays on
        doc = await w.doc()
        assert doc.seat(1).is_computer and doc.holders[1] == [bob.id, None]
        hand_key = doc.hand_key

        await w.restart()
        doc = await w.doc()
        assert doc.waiting[2] is not None and doc.waiting[2].user_id == carol.id
        assert doc.holders[1] == [bob.id, None]

        await play_hand(w, by_panel)
        assert (await w.match()).phase is Phase.BETWEEN_HANDS
        record = await w.bot.store.hand_record(hand_key)
        assert record is not None and record.result_side is not None
        assert record.holders == ((alice.id,), (bob.id, None), (None,), (None,))
        assert record.changed_seats == (1,)
        guild = w.guild.id
        bob_stats = await w.bot.store.stats(guild, bob.id, mode="teams")
        assert bob_stats.hands_as_declarers + bob_stats.hands_as_opponents == 0
        alice_stats = await w.bot.store.stats(guild, alice.id, mode="teams")
        assert alice_stats.hands_as_declarers + alice_stats.hands_as_opponents == 1
        assert alice_stats.rated_hands == 0

        await w.env.advance_time(61)  # past the Ready timeout: the next hand, carol sits
        doc = await w.doc()
        match = await w.match()
        assert match.hand_no == 2 and match.phase is Phase.DECLARING
        assert doc.seat(2).user_id == carol.id and doc.waiting == [None] * 4
        assert doc.holders == [[alice.id], [None], [carol.id], [None]]
        content = w.table_message().content
        assert "Seat 3 goes to" in content and "from this hand" in content
        assert w.dm_panel(carol).components  # her panel for the new hand


async def test_kick_swap_and_computers_between_hands(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2, users=3, hand_pause=30.0) as w:
        alice, bob, carol = w.users
        mods = w.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
        mod = w.guild.add_member(w.env.create_user("mod"), roles=[mods])
        await w.open_table(2)
        await w.start()
        version = await w.version()
        for who, command, options, words in [
            (bob, "tractor seat kick", {"seat": 1}, "Only the table's creator"),
            (carol, "tractor seat swap", {"first": 1, "second": 2}, "Only the table's creator"),
            (alice, "tractor seat swap", {"first": 2, "second": 3}, "wait until it is over"),
            (alice, "tractor seat swap", {"first": 2, "second": 2}, "two different seats"),
            (alice, "tractor seat removebot", {"seat": 4}, "wait until it is over"),
            (alice, "tractor addbot", {"seat": 4, "level": "normal"}, "wait until it is over"),
            (alice, "tractor seat kick", {"seat": 1}, "your own seat"),
            (alice, "tractor seat kick", {"seat": 4}, "Nobody is sitting in seat 4"),
            (bob, "tractor seat removebot", {}, "Only the table's creator"),
        ]:
            result = await who.slash(w.channel, command, **options)
            await refused(w, result, words)
        assert await w.version() == version

        # someone with Manage Channels gives bob's seat away mid-hand
        result = await mod.slash(w.channel, "tractor seat kick", seat=2)
        assert "played by a computer until someone sits" in said(result)
        doc = await w.doc()
        assert doc.seat(1).is_computer and doc.holders[1] == [bob.id, None]
        assert doc.seat(1).level == "easy"
        await play_hand(w, by_panel)
        assert (await w.match()).phase is Phase.BETWEEN_HANDS

        # between hands: swaps (announced when partnerships change), computers
        before = len(w.public_messages())
        result = await alice.slash(w.channel, "tractor seat swap", first=1, second=2)
        assert "swapped" in said(result)
        doc = await w.doc()
        assert doc.seat(1).user_id == alice.id and doc.seat(0).is_computer
        announced = [m.content for m in w.public_messages()[before:]]
        assert any("new partnerships" in text for text in announced), announced
        before = len(w.public_messages())
        await alice.slash(w.channel, "tractor seat swap", first=1, second=3)  # same team
        assert not any("new partnerships" in m.content for m in w.public_messages()[before:])

        result = await alice.slash(w.channel, "tractor seat removebot", seat=3)
        assert "computer left seat 3" in said(result)
        await w.env.advance_time(61)
        doc = await w.doc()
        assert doc.phase is Phase.BETWEEN_HANDS and doc.seats[2] is None and doc.timer is None
        await w.restart()
        await w.env.advance_time(61)
        assert (await w.doc()).phase is Phase.BETWEEN_HANDS  # still waiting for seat 3
        result = await bob.slash(w.channel, "tractor seat take", seat=3)  # at once
        assert "You sit in seat 3" in said(result)
        doc = await w.doc()
        assert doc.seat(2).user_id == bob.id and doc.timer == "next_hand"
        await w.env.advance_time(61)
        match = await w.match()
        assert match.hand_no == 2 and match.phase is not Phase.BETWEEN_HANDS
        record = await w.bot.store.match_record((await w.doc()).match_key or "")
        assert record is not None
        doc = await w.doc()
        assert record.players == doc.players()


async def test_computer_levels_in_the_lobby_and_after_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        await w.new_table()
        result = await alice.slash(w.channel, "tractor addbot", level="normal")
        assert "seat 2" in said(result)
        await alice.slash(w.channel, "tractor seat addbot", seat=3, level="strong")
        await alice.click(w.table_message(), label="Add bot")
        doc = await w.doc()
        assert [s.level for s in doc.seats[1:]] == ["normal", "strong", "easy"]
        content = w.table_message().content
        assert "Bot 2 · normal" in content and "Bot 3 · strong" in content
        assert w.bot.service.autopilot.player_of(doc, 1) != w.bot.service.autopilot.player_of(
            doc, 3)
        await alice.slash(w.channel, "tractor seat addbot", seat=2, level="easy")
        assert (await w.doc()).seat(1).level == "easy"  # a computer's level changed
        result = await alice.slash(w.channel, "tractor seat removebot")
        assert "seat 4" in said(result)
        result = await alice.slash(w.channel, "tractor seat removebot", seat=1)
        assert "Seat 1 is not a computer's" in said(result)

        # a document written before levels: its computers play at the default
        stored = await w.bot.store.load_table(w.table_id)
        assert stored is not None
        old = dict(stored.doc)
        assert old["v"] == DOC_VERSION
        old["seats"] = [None if s is None else {k: v for k, v in s.items() if k != "level"}
                        for s in old["seats"]]
        old.pop("waiting")
        old.pop("holders")
        await w.bot.store.save_table(w.table_id, stored.version, old)
        await w.restart()
        doc = await w.doc()
        assert [None if s is None else s.level for s in doc.seats] == [None, "easy", "easy",
                                                                     None]
        assert "Bot 3 · easy" in w.table_message().content


async def test_lobby_seats(tmp_path: Path) -> None:
    async with world(tmp_path, humans=3) as w:
        alice, bob, carol = w.users
        await w.open_table(3)  # one computer in seat 4
        result = await bob.slash(w.channel, "tractor seat kick", seat=3)
        assert "Only the table's creator" in said(result)
        result = await alice.slash(w.channel, "tractor seat kick", seat=3)
        assert "played by a computer" in said(result)
        doc = await w.doc()
        assert doc.seats[2] is None  # in the lobby the seat is simply free
        result = await bob.slash(w.channel, "tractor seat removebot")  # anyone seated
        assert "seat 4" in said(result) and (await w.doc()).seats[3] is None
        before = len(w.public_messages())
        await alice.slash(w.channel, "tractor seat swap", first=1, second=2)
        doc = await w.doc()
        assert doc.seat(0).user_id == bob.id and doc.seat(1).user_id == alice.id
        assert any("new partnerships" in m.content for m in w.public_messages()[before:])
        result = await carol.slash(w.channel, "tractor seat take", seat=3)
        assert "You sit in seat 3" in said(result)


async def test_a_seat_has_one_name_in_every_text_and_picture(tmp_path: Path) -> None:
    """Issue 38 item 6: "Bot 2" on a plate, "Computer 3 · strong" on another, "Declared by
    Computer 3" in the text. The texts' name of every seat is the picture's, in every
    language (a computer's level may follow it), and the plates' "Declarer" badge, read as
    "who declared", now says what it marks: the starter's partner."""
    async with world(tmp_path, humans=1, hand_pause=30.0) as w:
        await w.open_table(1)
        await w.start()
        doc = await w.doc()
        for locale in SUPPORTED:
            labels = seat_labels(doc, locale)
            for seat in range(doc.seat_count):
                name = seat_name(doc, seat, locale).replace("\\", "")
                drawn = {form.split(" · ")[0] for form in (labels[seat].name,
                                                           *labels[seat].forms)}
                assert drawn == {name}, (locale, seat, labels[seat])
        content = w.table_message().content
        assert "Bot 2 · easy" in content and not re.search(r"Computer \d", content)
        assert t("render.declarer", "en") == "Partner"
        public = (await w.match()).public_view()
        names = [SeatLabel(label.name, forms=label.forms) for label in seat_labels(doc, "en")]
        for count, words in ((1, "declared by Bot 3"), (2, "declared by Bot 3 with 2 cards")):
            shown = (Card(Rank.TWO, Suit.HEARTS),) * count
            declared = replace(public, trump=Trump(Rank.TWO, Suit.HEARTS),
                               trump_how=TrumpHow.DECLARED,
                               declarations=(Declaration(2, shown),))
            assert trump_words(declared, names, ENGLISH)[0] == words
