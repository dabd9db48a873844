"""The Tricks view: every trick of the hand from public information, and what the viewer has
not seen yet (their own hand excluded), fitted to Discord's limits; a table option turns the
count off; refused once with nothing to show; works after a restart."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from botkit import by_panel, find, reply_texts, seats_to_act, world

from bot.features.tricks import hand_tricks, unseen_cards
from bot.ui.replies import pages
from engine.cards import full_deck
from engine.game import Phase


async def play_until(w, tricks: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(400):
        match = await w.match()
        public = match.public_view()
        if public.phase is Phase.PLAYING and public.tricks_played >= tricks:
            return
        seats = seats_to_act(match)
        doc = await w.doc()
        humans = [s for s in seats if doc.seat(s).user_id is not None]
        await by_panel(w, humans[0])
    raise AssertionError("not reached")


async def test_tricks_view_public_tricks_and_the_viewers_unseen_count(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        alice = w.users[0]
        refused = await alice.slash(w.channel, "tractor tricks show")
        assert reply_texts(refused) == ["No hand is being played at this table yet."]
        await w.start()
        await play_until(w, 20)
        match = await w.match()
        public = match.public_view()
        button = find(w.table_message(), "tricks")
        assert button is not None and button.label == "Tricks"
        result = await alice.click(w.table_message(), custom_id=button.custom_id)
        texts = reply_texts(result)
        assert result.ephemeral and all(len(x) <= 2000 for x in texts) and texts
        text = "\n".join(texts)
        assert "Tricks of hand 1" in text
        numbers = [int(n) for n in re.findall(r"^\*\*(\d+)\.\*\*", text, re.M)]
        assert numbers == list(range(1, len(hand_tricks(public)) + 1))
        # the winners are the engine's
        wins = [t.winner for t in hand_tricks(public) if t.winner is not None]
        assert len(wins) == public.tricks_played
        assert public.last_trick is not None and wins[-1] == public.last_trick.winner
        # the count: not played, not in Alice's hand (nor in a kitty she buried)
        view = match.view_for(0)
        known = [*view.hand, *(view.kitty or ())]
        unseen = unseen_cards(public, known)
        expected = Counter(full_deck())
        expected.subtract(c for _, cards in public.played for c in cards)
        expected.subtract(known)
        assert Counter(unseen) == +expected
        trumps = sum(1 for c in unseen if public.trump is not None and public.trump.is_trump(c))
        assert f"Trumps {trumps}:" in text
        assert f"Points {sum(c.points for c in unseen)}:" in text
        # a spectator's count excludes only the played cards
        spectator = w.spectator
        assert spectator is not None
        seen = reply_texts(await spectator.slash(w.channel, "tractor tricks show"))
        spectator_trumps = sum(1 for c in unseen_cards(public, [])
                               if public.trump is not None and public.trump.is_trump(c))
        assert f"Trumps {spectator_trumps}:" in "\n".join(seen)
        # after a restart the button still works
        await w.restart()
        again = await alice.click(w.table_message(), custom_id=button.custom_id)
        assert "Tricks of hand 1" in "\n".join(reply_texts(again))


async def test_the_count_can_be_turned_off(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1, unseen_count=False)
        await w.start()
        await play_until(w, 1)
        text = "\n".join(reply_texts(await w.users[0].slash(w.channel, "tractor tricks show")))
        assert "**1.**" in text and "Not seen yet" not in text and "Trumps" not in text


def test_pages_fit_long_views_into_few_messages() -> None:
    lines = [f"**{n}.** " + "x" * 150 for n in range(1, 26)]
    chunks = pages(lines)
    assert len(chunks) == 3 and all(len(c) <= 2000 for c in chunks)
    assert "\n".join(chunks) == "\n".join(lines)
    cut = pages(["y" * 1900] * 5, most=3)
    assert len(cut) == 3 and cut[-1].endswith("…") and all(len(c) <= 2000 for c in cut)
    assert pages(["z" * 5000]) == ["z" * 1999 + "…"]
