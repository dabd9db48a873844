"""The table before its first deal (issue 31 item 8): its message and picture say the first
deal is awaited — not "Hand 0", not "Hand over" — in every catalog; once the first hand is
dealt, that waiting message does not stay above the live table: the channel holds one table
message, the live one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from botkit import World, find, ready_all, world

from bot.i18n import SUPPORTED, t
from bot.present.images import labels_for, table_png
from bot.render import draw as draw_module
from bot.render import ring, table
from bot.render.table import render_table
from bot.ui.panels import seat_labels
from engine.game import Phase


def table_messages(w: World) -> list[discord.Message]:
    """The channel's table messages: those carrying a table picture."""
    return [m for m in w.public_messages()
            if any(a.filename.startswith("table-") for a in m.attachments)]


def drawn_words(monkeypatch: pytest.MonkeyPatch, *args: Any, **kwargs: Any) -> list[str]:
    """Every text the table picture draws."""
    drawn: list[str] = []
    real = draw_module.text

    def spy(canvas: Any, xy: Any, value: str, *rest: Any, **options: Any) -> float:
        drawn.append(value)
        return real(canvas, xy, value, *rest, **options)

    with monkeypatch.context() as patch:
        patch.setattr(table, "text", spy)
        patch.setattr(ring, "text", spy)
        table.table_png.cache_clear()
        render_table(*args, **kwargs)
    return drawn


@pytest.mark.parametrize("players", [4, 5])
async def test_the_waiting_table_gives_way_to_the_live_one(tmp_path: Path, players: int,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    options = {} if players == 4 else {"mode": "friends", "players": players}
    async with world(tmp_path, humans=2, start_delay=15) as w:
        await w.open_table(2, **options)
        await w.start()
        await w.bot.publisher.idle()
        match = await w.match()
        assert match.phase is Phase.BETWEEN_HANDS and match.hand_no == 0  # nothing dealt
        doc = await w.doc()
        waiting = table_messages(w)
        assert len(waiting) == 1
        content = waiting[0].content or ""
        assert "Hand 0" not in content and "Hand over" not in content, content
        assert t("table.first_hand", "en") in content, content
        # its picture: what the bot draws for that view, which says so (not "Hand over")
        public = match.public_view()
        names = seat_labels(doc, doc.locale)
        assert await waiting[0].attachments[0].read() == table_png(public, names, "en")
        words = drawn_words(monkeypatch, public, names, labels=labels_for("en"))
        assert "Hand over" not in words and "Hand 0" not in words, words
        assert "Not dealt" in words and "Waiting for the first deal" in words, words

        await ready_all(w)
        await w.bot.publisher.idle()
        match = await w.match()
        assert match.hand_no == 1 and match.phase is not Phase.BETWEEN_HANDS
        tables = table_messages(w)
        assert len(tables) == 1, [m.content for m in tables]
        live = tables[0]
        assert live.id == w.table_message().id and find(live, "myhand") is not None
        assert "**Hand 1**" in (live.content or ""), live.content
        for message in w.public_messages():  # no stale waiting table anywhere
            text = message.content or ""
            assert "Hand 0" not in text and t("table.first_hand", "en") not in text, text


@pytest.mark.parametrize("locale", SUPPORTED)
def test_every_catalog_names_the_wait_for_the_first_deal(locale: str) -> None:
    labels = labels_for(locale)
    assert labels.first_deal not in ("", labels.phase_settled)
    assert t("table.first_hand", locale) not in ("", t("table.hand_no", locale, number=0))


async def test_no_line_of_the_lobby_or_the_wait_stays_above_the_first_hand(
        tmp_path: Path) -> None:
    """Issue 38 item 4: once the match has begun, no message in the channel still shows the
    lobby ("Seat 2: (empty) … Press Join": its last edit may not have gone out before the
    start), and once the first hand is dealt none still counts down to it ("The deal
    starts … press Ready"): a message whose moment has passed is removed."""
    async with world(tmp_path, humans=2, start_delay=15) as w:
        await w.open_table(2)
        await w.start()
        await w.bot.publisher.idle()
        lobby = t("lobby.title", "en")
        texts = [m.content or "" for m in w.public_messages()]
        assert not any(lobby in text for text in texts), texts
        assert sum("The deal starts" in text for text in texts) == 1, texts  # the table's
        await ready_all(w)
        await w.bot.publisher.idle()
        assert (await w.match()).hand_no == 1
        texts = [m.content or "" for m in w.public_messages()]
        assert not any(lobby in text or "The deal starts" in text or
                       t("lobby.seat_empty", "en") in text for text in texts), texts
        assert texts[0].startswith("**Hand 1**"), texts
