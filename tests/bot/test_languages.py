"""Words (issue 5): every ephemeral reply (errors, confirmations, panels, help, rules) is in
the reader's language — their ``/tractor settings language``, else their Discord client's;
public table text is in the server's language — its ``server_language`` setting, else the
server's Discord language. Help and rules explain the game with the options in force. A
player's deck colours reach their hand image."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import discord
import pytest
from botkit import (
    World,
    by_panel,
    client_locales,
    components,
    find,
    seats_to_act,
    world,
)
from PIL import Image

from bot.present.images import hand_png
from bot.ui.selection import pool as _pool
from bot.ui.selection import selection_cards
from engine.game import Phase

# The words players use (issue 5), as the help and rules must show them.
HANS_TERMS = ("级", "亮主", "反主", "底牌", "扣底", "拖拉机", "甩牌", "庄家", "闲家", "抓分方",
              "主牌")
HANT_TERMS = ("級", "亮主", "反主", "底牌", "扣底", "拖拉機", "甩牌", "莊家", "閒家", "抓分方",
              "主牌")
SIMPLIFIED_ONLY = "级机庄闲张规选项时"  # never in a 繁體中文 text
ENGLISH_WORDS = ("Options", "**declare**", "Turn timer", "opponents", "Tractor commands")


def text(result: Any) -> str:
    parts = [result.response.content or ""] if result.response is not None else []
    parts += [f.content or "" for f in result.followups]
    return "\n".join(parts)


def assert_hans(body: str) -> None:
    for word in ENGLISH_WORDS:
        assert word not in body, (word, body)
    assert not any(c in body for c in "級機莊閒張"), body


def assert_hant(body: str) -> None:
    for word in ENGLISH_WORDS:
        assert word not in body, (word, body)
    assert not any(c in body for c in SIMPLIFIED_ONLY), body


async def test_replies_follow_the_readers_language(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=3, hand_pause=30) as w:
        alice, bob, carol = w.users
        client_locales(monkeypatch, {alice.id: "en-US", bob.id: "zh-CN", carol.id: "zh-TW"})
        channel = w.channel

        # ---- no table yet: help and rules explain the game with the default options
        en = text(await alice.slash(channel, "tractor help"))
        assert "**Tractor commands**" in en and "/tractor play" in en
        assert "**Options for a new table here**" in en and "Turn timer: 90 s" in en
        for word in ("**declare**", "**overturns**", "**kitty**", "**buries**", "**tractor**",
                     "**throw**", "**declarers**", "**opponents**", "**levels**"):
            assert word in en, word
        hans = text(await bob.slash(channel, "tractor help"))
        assert "**拖拉机命令**" in hans and "**本服务器新开牌桌的选项**" in hans
        assert all(term in hans for term in HANS_TERMS), hans
        assert_hans(hans)
        hant = text(await carol.slash(channel, "tractor help"))
        assert "**拖拉機指令**" in hant and "**本伺服器新開牌桌的選項**" in hant
        assert all(term in hant for term in HANT_TERMS), hant
        assert_hant(hant)
        for user, check in ((bob, assert_hans), (carol, assert_hant)):
            rules = text(await user.slash(channel, "tractor rules"))
            assert "反主" in rules and "/tractor play" not in rules
            check(rules)
        rules = text(await alice.slash(channel, "tractor rules"))
        assert "**Tractor (升级)**" in rules and "Turn timer: 90 s" in rules

        # ---- errors
        assert "no table in this channel" in text(await alice.slash(channel, "tractor join"))
        assert "本频道没有牌桌" in text(await bob.slash(channel, "tractor join"))
        assert "本頻道沒有牌桌" in text(await carol.slash(channel, "tractor join"))

        # ---- confirmations; the table's options in help and rules
        assert "Table opened" in text(await alice.slash(channel, "tractor new", turn_timer=60))
        stored = await w.bot.store.table_in_channel(channel.id)
        assert stored is not None
        w.table_id = stored.id
        assert "你坐在 2 号座位" in text(await bob.slash(channel, "tractor join"))
        assert "你坐在 3 號座位" in text(await carol.slash(channel, "tractor join"))
        assert "本频道已有牌桌" in text(await bob.slash(channel, "tractor new"))
        hans = text(await bob.slash(channel, "tractor help"))
        assert "**牌桌选项**" in hans and "60 秒" in hans
        hant = text(await carol.slash(channel, "tractor rules"))
        assert "**牌桌選項**" in hant and "60 秒" in hant
        assert_hant(hant)
        en = text(await alice.slash(channel, "tractor rules"))
        assert "**Table options**" in en and "Turn timer: 60 s" in en
        # the public lobby message is in the server's language (en-US here)
        assert "Tractor table (升级)" in w.table_message().content

        # ---- a personal language wins over the client's
        await alice.slash(channel, "tractor settings", language="zh_Hant")
        hant = text(await alice.slash(channel, "tractor help"))
        assert "**拖拉機指令**" in hant
        assert_hant(hant)
        assert "已經在這一桌" in text(await alice.slash(channel, "tractor join"))
        await bob.slash(channel, "tractor settings", language="en")
        assert "You already have a seat" in text(await bob.slash(channel, "tractor join"))

        # ---- the game: panels and errors in each reader's language
        await alice.click(w.table_message(), label="Add bot")
        await alice.click(w.table_message(), label="Start")
        assert "**Hand 1**" in w.table_message().content  # public: English server
        carol_panel = w.dm_panel(carol)
        assert "你的手牌" in carol_panel.content and "第 1 局" in carol_panel.content
        assert "Your hand" in w.dm_panel(bob).content  # bob's setting
        assert "你的手牌" in w.dm_panel(alice).content
        mine = await carol.click(w.table_message(), label="My hand")
        assert "你的手牌" in text(mine) and "Your hand" not in text(mine)
        bad = text(await carol.slash(channel, "tractor play", cards="XX"))
        assert bad.startswith("看不懂這些牌")
        bad = text(await bob.slash(channel, "tractor play", cards="XX"))
        assert bad.startswith("I can't read those cards")
        outsider = w.spectator
        assert outsider is not None
        result = await outsider.click(w.table_message(), label="My hand")
        assert "not seated" in text(result)
        client_locales(monkeypatch, {outsider.id: "zh-TW"})
        result = await outsider.click(w.table_message(), label="My hand")
        assert "你不在這一桌" in text(result)


async def test_public_text_follows_the_server_language(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1) as w:
        env = w.env
        client_locales(monkeypatch, {})
        admins = w.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        boss = w.guild.add_member(env.create_user("boss"), roles=[admins])
        alice = w.users[0]
        # ---- server_language zh_Hans: public table text in Chinese, replies stay English
        result = await boss.slash(w.channel, "tractor settings", server_language="zh_Hans")
        assert text(result).endswith("Public table messages: 简体中文")
        result = await alice.slash(w.channel, "tractor new")
        assert "Table opened" in text(result)  # alice reads English
        lobby = w.table_message()
        assert "拖拉机牌桌（升级）" in lobby.content and "牌桌选项" in lobby.content
        assert find(lobby, "join").label == "加入"
        for _ in range(3):
            await alice.click(w.table_message(), label="加电脑")
        await alice.slash(w.channel, "tractor start")
        table = w.table_message()
        assert "**第 1 局**" in table.content and "Hand 1" not in table.content
        assert "Your hand" in w.dm_panel(alice).content  # her panel: her language

        # ---- changing the server language switches the open table's public text
        await boss.slash(w.channel, "tractor settings", server_language="en")
        assert "**Hand 1**" in w.table_message().content

        # ---- a server whose Discord language is 繁體中文 and no setting: 繁體中文
        club = env.create_guild(name="茶館", preferred_locale="zh-TW")
        room = club.create_text_channel("tractor")
        dora = club.add_member(env.create_user("dora"))
        result = await dora.slash(room, "tractor new")
        assert "Table opened" in text(result)  # dora's client is en-US
        lobby = next(m for m in reversed(room.history()) if find(m, "join"))
        assert "拖拉機牌桌（升級）" in lobby.content
        # … and an explicit English server language wins over the server's Discord one
        owner_role = club.create_role("Admins", permissions=discord.Permissions(
            manage_guild=True))
        admin = club.add_member(env.create_user("admin"), roles=[owner_role])
        result = await admin.slash(room, "tractor settings", server_language="en")
        assert text(result).endswith("Public table messages: English")
        lobby = next(m for m in reversed(room.history()) if find(m, "join"))
        assert "Tractor table (升级)" in lobby.content
        result = await admin.slash(room, "tractor settings")
        assert text(result).endswith("Public table messages: English")


def colours(png: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {colour for _, colour in image.getcolors(maxcolors=1 << 24) or []}


async def attachment(message: Any) -> bytes:
    if not isinstance(message, discord.Message):
        message = message.message
    assert message.attachments, message.content
    return await message.attachments[0].read()


async def human_to_play(w: World, limit: int = 200) -> None:
    for _ in range(limit):
        match = await w.match()
        public = match.public_view()
        if public.phase is Phase.PLAYING and public.turn == 0:
            return
        assert 0 in seats_to_act(match)
        await by_panel(w, 0)
    raise AssertionError("never reached")


async def test_deck_colours_reach_the_players_hand_image(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1, hand_pause=30) as w:
        alice = w.users[0]
        await w.open_table(1)
        await w.start()
        await human_to_play(w)
        view = (await w.match()).view_for(0)

        four = await attachment((await alice.click(w.table_message(), label="My hand"))
                                .response)
        assert four == hand_png(view, "en", four_colour=True)
        await alice.slash(w.channel, "tractor settings", deck="two-colour")
        two = await attachment((await alice.click(w.table_message(), label="My hand"))
                               .response)
        assert two == hand_png(view, "en", four_colour=False)
        assert two != four
        # ♦ is blue and ♣ green only in the four-colour deck: the pictures differ in colour
        assert colours(two) != colours(four)

        # The DM panel (edited when a card is selected) uses the setting too.
        panel = w.dm_panel(alice)
        select = next(c for c in components(panel) if ":sel:" in (c.custom_id or ""))
        value = select.options[0].value
        await alice.user.select(panel, [value], custom_id=select.custom_id)
        panel = w.dm_panel(alice)
        cards = selection_cards(_pool(view), [value])
        assert await attachment(panel) == hand_png(view, "en", selected=cards,
                                                   four_colour=False)
        await alice.slash(w.channel, "tractor settings", deck="four-colour")
        await alice.user.select(panel, [], custom_id=select.custom_id)
        assert await attachment(w.dm_panel(alice)) == hand_png(view, "en", four_colour=True)
