"""The engine's rulings in the reader's language: an illegal lead, follow, turn or card text
is explained entirely in 简体中文 or 繁體中文 (the engine's key and parameters, translated by
the catalog), in English exactly as the engine says it, in replies and in the hand panel."""

from __future__ import annotations

import random
import re
import string
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from botkit import World, by_panel, client_locales, components, seats_to_act, world

from bot.i18n import t
from bot.present.text import cards_text, legible, ruling_text
from bot.ui.selection import pool as _pool
from bot.ui.selection import selection_cards
from engine.cards import Card, format_cards, parse_cards
from engine.errors import InvalidNotation, TractorError
from engine.follow import follow_error
from engine.game import Phase
from engine.reasons import ENGLISH, Reason, ruling

ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")  # card text is at most "10", "RJ"; "(R8)" one letter
SIMPLIFIED_ONLY = "级机庄闲张规选项时还没轮号须对门这里发"
TRADITIONAL_ONLY = "級機莊閒張規選項時還沒輪號須對門這裡發"


def text(result: Any) -> str:
    parts = [result.response.content or ""] if result.response is not None else []
    parts += [f.content or "" for f in result.followups]
    return "\n".join(parts)


def assert_hans(body: str) -> None:
    assert not ENGLISH_WORD.search(body), body
    assert not any(c in body for c in TRADITIONAL_ONLY), body


def assert_hant(body: str) -> None:
    assert not ENGLISH_WORD.search(body), body
    assert not any(c in body for c in SIMPLIFIED_ONLY), body


async def until_playing(w: World) -> None:
    for _ in range(100):
        match = await w.match()
        if match.phase is Phase.PLAYING:
            return
        await by_panel(w, seats_to_act(match)[0])
    raise AssertionError("never reached the play")


def illegal_follow(hand: tuple[Card, ...], lead: tuple[Card, ...], trump: Any,
                   rng: random.Random) -> tuple[list[Card], Reason] | None:
    """Cards from `hand` that break a following rule (not a wrong count or missing cards)."""
    n = len(lead)
    tries = list(combinations(range(len(hand)), n)) if n <= 2 else [
        tuple(rng.sample(range(len(hand)), n)) for _ in range(400)]
    for picked in tries:
        play = [hand[i] for i in picked]
        reason = follow_error(hand, lead, play, trump)
        if reason is not None:
            assert isinstance(reason, Reason)
            return play, reason
    return None


async def test_illegal_plays_are_explained_in_the_readers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=4, hand_pause=30) as w:
        await w.open_table(4)
        await w.start()
        await until_playing(w)
        channel = w.channel

        # ---- a lead of two suits, out of turn, bad card text
        match = await w.match()
        public = match.public_view()
        turn = public.turn
        trump = public.trump
        assert turn is not None and trump is not None
        leader, other = await w.user_of(turn), await w.user_of((turn + 1) % 4)
        client_locales(monkeypatch, {leader.id: "zh-CN", other.id: "zh-TW"})
        hand = match.view_for(turn).hand
        mixed = [hand[0], next(c for c in hand if trump.suit_index(c) != trump.suit_index(hand[0]))]
        body = text(await leader.slash(channel, "tractor play", cards=format_cards(mixed)))
        assert body.startswith("不允许：首家出牌必须是同一门"), body
        assert body.endswith("(R7)") and "、" in body
        assert_hans(body)
        card = format_cards(match.view_for((turn + 1) % 4).hand[:1])
        body = text(await other.slash(channel, "tractor play", cards=card))
        assert body == f"不允許：還沒輪到你：下一個出牌的是 {turn + 1} 號座位 (R7)", body
        body = text(await leader.slash(channel, "tractor play", cards="AS XX"))
        assert body == ("看不懂这些牌：“XX”不是一张牌：先写点数再写花色，如 AS、10H、♤K，"
                        "大小王写 RJ/BJ")

        # ---- an illegal follow, typed and selected in the panel
        rng = random.Random(3)
        found = None
        for _ in range(200):
            match = await w.match()
            public = match.public_view()
            if public.phase is not Phase.PLAYING:
                break
            assert public.turn is not None and public.trump is not None
            view = match.view_for(public.turn)
            if view.lead is not None:
                found = illegal_follow(view.hand, view.lead, public.trump, rng)
                if found is not None:
                    break
            await by_panel(w, public.turn)
        assert found is not None, "no illegal follow came up"
        play, reason = found
        assert reason.key not in ("follow.not_held", "follow.count")
        seat = public.turn
        follower = await w.user_of(seat)
        before = (await w.doc()).action_seq

        client_locales(monkeypatch, {follower.id: "en-US"})
        body = text(await follower.slash(channel, "tractor play", cards=format_cards(play)))
        assert body == f"Not allowed: {reason}"  # the engine's own English words

        client_locales(monkeypatch, {follower.id: "zh-CN"})
        body = text(await follower.slash(channel, "tractor play", cards=format_cards(play)))
        assert body == t("error.not_allowed", "zh-CN", reason=ruling_text(reason, "zh_Hans"))
        assert body.startswith("不允许：") and body.endswith("(R8)")
        assert_hans(body)

        client_locales(monkeypatch, {follower.id: "zh-TW"})
        body = text(await follower.slash(channel, "tractor play", cards=format_cards(play)))
        assert body == t("error.not_allowed", "zh-TW", reason=ruling_text(reason, "zh_Hant"))
        assert body.startswith("不允許：") and body.endswith("(R8)")
        assert_hant(body)
        assert (await w.doc()).action_seq == before  # nothing was played

        # The hand panel explains a selection the same way (the DM panel, edited in the
        # language of whoever clicks: zh-TW here).
        pool = _pool(view)
        wanted = list(play)
        selects = [c for c in components(w.dm_panel(follower)) if ":sel:" in (c.custom_id or "")]
        for select in selects:
            chosen = []
            for option in select.options:
                card = selection_cards(pool, [option.value])
                if card and card[0] in wanted:
                    wanted.remove(card[0])
                    chosen.append(option.value)
            if chosen:
                await follower.user.select(w.dm_panel(follower), chosen,
                                           custom_id=select.custom_id)
        assert not wanted
        content = w.dm_panel(follower).content
        expected = t("panel.selected_illegal", "zh-TW", cards=cards_text(play),
                     reason=ruling_text(reason, "zh_Hant"))
        assert expected.split("：", 1)[1] in content, content
        line = next(line for line in content.splitlines() if "不允許" in line)
        assert_hant(line)
        assert (await w.doc()).action_seq == before


# ---- ruling_text on its own ----------------------------------------------------------

SAMPLE: dict[str, str | int] = {"suit": "T", "suits": "HT", "cards": "2H 2H", "count": 3,
                                "pairs": 2, "seat": 1, "notation": "QH 10S", "token": "ZZ",
                                "level": "10", "number": 4, "size": 8, "played": 7,
                                "width": 3, "length": 2, "groups": "3+2", "decks": 3, "copy": 4,
                                "held": 33}


@pytest.mark.parametrize("key", sorted(ENGLISH))
def test_every_ruling_reads_in_each_language(key: str) -> None:
    base = key.removesuffix(".one")
    names = {f for text_ in (ENGLISH[key], ENGLISH[base])
             for _, f, _, _ in string.Formatter().parse(text_) if f}
    params = {name: (1 if name == "count" and key.endswith(".one") else SAMPLE[name])
              for name in names}
    reason = ruling(base, **params)
    english = ruling_text(reason, "en")
    if not names & {"seat", "notation"}:
        assert english == legible(reason)  # the bot's English is the engine's (♤ ♧)
    hans, hant = ruling_text(reason, "zh_Hans"), ruling_text(reason, "zh_Hant")
    for body, check in ((hans, assert_hans), (hant, assert_hant)):
        check(body.replace("ZZ", ""))
        assert "{" not in body and re.findall(r"\(R\d+\)", body) == re.findall(r"\(R\d+\)",
                                                                                 reason)
        if "suit" in names:
            assert "主牌" in body
        if "seat" in names:
            assert "2 " in body  # seats are numbered 1–4 in the bot
        if "cards" in names or "notation" in names:
            assert "♡" in body


def test_ruling_text_of_errors_and_plain_text() -> None:
    with pytest.raises(InvalidNotation) as bad:
        parse_cards("*X*")
    assert ruling_text(bad.value, "zh-TW").startswith("「\\*X\\*」不是一張牌")  # escaped
    assert ruling_text(TractorError("just text"), "zh_Hans") == "just text"
    assert ruling_text("a plain reason", "zh_Hant") == "a plain reason"
    assert ruling_text(ruling("follow.suit", suit="S"), "en") == (
        "You still hold ♤ cards, so every card you play must be ♤ (R8)")
    assert ruling_text(ruling("bury.not_starter", seat=0), "en") == (
        "Only the starter (seat 1) buries the kitty (R6)")
    assert ruling_text(ruling("lead.mixed_suits", suits="SDT"), "zh_Hans") == (
        "首家出牌必须是同一门（主牌算一门），不能混出 ♤、♢、主牌 (R7)")
