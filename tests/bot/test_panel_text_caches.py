"""The panels' text caches (issue 16) answer exactly what the uncached lookups do: `t`'s
templates per (key, locale), the card faces by code, markdown escaping per name."""

from __future__ import annotations

import discord
import pytest

from bot import i18n
from bot.core.table import Seat, TableDoc
from bot.i18n import messages, t, tn
from bot.present.text import PRETTY, escaped, legible, pretty, seat_name
from engine.cards import ALL_CARDS


def test_t_keeps_each_language_apart() -> None:
    for _ in range(2):  # uncached, then cached
        assert t("button.clear", "en") == messages("en")["button.clear"]
        assert t("button.clear", "zh_Hans") == messages("zh_Hans")["button.clear"]
        assert t("button.clear", discord.Locale.taiwan_chinese) == \
            messages("zh_Hant")["button.clear"]
        assert t("button.clear", "fr") == t("button.clear", None) == t("button.clear", "en")
        assert t("table.hand_no", "en", number=3) == messages("en")["table.hand_no"].format(
            number=3)
        assert tn("table.cards_left", 1, "en") != tn("table.cards_left", 2, "en")


def test_t_still_refuses_what_it_refused() -> None:
    for _ in range(2):
        with pytest.raises(KeyError):
            t("no.such.key", "en")
        with pytest.raises(KeyError):
            t("table.hand_no", "en")  # its placeholder is missing
    assert t("table.hand_no", "en", number=1)


def test_t_forgets_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "TEMPLATES_KEPT", 3)
    monkeypatch.setattr(i18n, "_TEMPLATES", {})
    monkeypatch.setattr(i18n, "_PLAIN", {})
    for key in ("button.clear", "button.hint", "button.type", "button.suggest",
                "button.refresh"):
        t(key, "zh_Hans")
        assert 0 < len(i18n._TEMPLATES) <= 3 and 0 < len(i18n._PLAIN) <= 3
    assert t("button.clear", "zh_Hans") == messages("zh_Hans")["button.clear"]


def test_card_faces_and_names() -> None:
    assert [pretty(card) for card in ALL_CARDS] == [legible(card.pretty) for card in ALL_CARDS]
    assert len(PRETTY) == 54
    doc = TableDoc(guild_id=1, channel_id=2, creator_id=3)
    doc.seats[0] = Seat(5, "a_b*c~~d~~")
    for _ in range(2):
        assert seat_name(doc, 0, "en") == discord.utils.escape_markdown("a_b*c~~d~~")
    assert escaped("`x`") == discord.utils.escape_markdown("`x`")
