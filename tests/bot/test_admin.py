"""Server defaults and seasons (issue 13), end to end with SimCord: ``/tractor defaults``
shows everyone the defaults and lets Manage Server change them through the options
registry (new tables start from them); ``/tractor season new|list`` and ``season:`` on
the records commands, with translated refusals."""

from __future__ import annotations

from pathlib import Path

import discord
from botkit import reply_texts, world


def said(result: object) -> str:
    return "\n".join(reply_texts(result))


async def test_server_defaults(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        admins = w.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        boss = w.guild.add_member(w.env.create_user("boss"), roles=[admins])
        store = w.bot.store
        guild = w.guild.id

        result = await alice.slash(w.channel, "tractor defaults")
        assert "defaults for new tables" in said(result) and "Turn timer" in said(result)
        result = await alice.slash(w.channel, "tractor defaults", option="turn_timer_s",
                                   value="90")
        assert "Manage Server" in said(result) and result.ephemeral
        assert (await store.guild_settings(guild)).table_options == {}

        for options, words in [({"option": "turn_timer_s"}, "both an option and its value"),
                               ({"option": "turn_timer_s", "value": "soon"}, "not allowed"),
                               ({"option": "turn_timer_s", "value": "9999"}, "not allowed"),
                               ({"option": "kitty_multiplier", "value": "x9"}, "not allowed")]:
            result = await boss.slash(w.channel, "tractor defaults", **options)
            assert words in said(result), (options, said(result))
        assert (await store.guild_settings(guild)).table_options == {}

        choices = await boss.autocomplete(w.channel, "tractor defaults", "value", "",
                                          option="kitty_multiplier")
        assert len(choices) >= 2 and all(c["name"] for c in choices)
        chosen = choices[-1]["value"]
        await boss.slash(w.channel, "tractor defaults", option="kitty_multiplier", value=chosen)
        result = await boss.slash(w.channel, "tractor defaults", option="turn_timer_s",
                                  value="90", language="zh_Hans")
        assert "Saved." in said(result) and "Turn timer: 90 s" in said(result)
        settings = await store.guild_settings(guild)
        assert settings.table_options == {"kitty_multiplier": chosen, "turn_timer_s": 90}

        await w.restart()
        store = w.bot.store
        await alice.slash(w.channel, "tractor new")  # new tables start from the defaults
        found = await store.table_in_channel(w.channel.id)
        assert found is not None
        w.table_id = found.id
        doc = await w.doc()
        assert doc.options["turn_timer_s"] == 90 and doc.options["kitty_multiplier"] == chosen
        assert doc.locale == "zh_Hans" and "牌桌选项" in w.table_message().content

        await boss.slash(w.channel, "tractor defaults", reset="turn_timer_s")
        assert (await store.guild_settings(guild)).table_options == {"kitty_multiplier": chosen}
        await boss.slash(w.channel, "tractor defaults", reset="all")
        assert (await store.guild_settings(guild)).table_options == {}


async def test_seasons(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        alice = w.users[0]
        admins = w.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        boss = w.guild.add_member(w.env.create_user("boss"), roles=[admins])
        store = w.bot.store
        guild = w.guild.id

        commands = set(alice.available_commands(w.channel))
        assert {"tractor join", "tractor addbot", "tractor seat take", "tractor seat kick",
                "tractor seat swap", "tractor seat addbot", "tractor seat removebot",
                "tractor defaults", "tractor season new", "tractor season list"} <= commands
        assert len(w.bot.tractor_group.commands) <= 25  # Discord's limit per group

        result = await alice.slash(w.channel, "tractor season new")
        assert "Manage Server" in said(result)
        assert (await store.current_season(guild)).number == 1

        before = len(w.public_messages())
        result = await boss.slash(w.channel, "tractor season new", name="Spring")
        assert "Season 1 is closed; Season 2 “Spring” starts now" in said(result)
        assert any("Season 2 “Spring” begins" in m.content
                   for m in w.public_messages()[before:])
        assert (await store.current_season(guild)).number == 2

        result = await alice.slash(w.channel, "tractor leaderboard")
        assert "Season 2" in said(result)
        result = await alice.slash(w.channel, "tractor leaderboard", season=1)
        assert "Season 1" in said(result)
        ids = [getattr(c, "custom_id", "") for row in result.response.message.components
               for c in getattr(row, "children", [row])]
        assert ids and all(i.startswith("rec:lb:") and i.endswith(":1") for i in ids), ids
        for command, options in [("tractor leaderboard", {"season": 3}),
                                 ("tractor stats", {"season": 7}),
                                 ("tractor history", {"season": 9})]:
            result = await alice.slash(w.channel, command, **options)
            assert "This server has no season" in said(result), said(result)
            # stats answers privately; leaderboard and history are public commands whose
            # refusal replaces their public "thinking…"
            assert result.ephemeral == (command == "tractor stats")
        result = await alice.slash(w.channel, "tractor stats", season=1)
        assert not any("no season" in text for text in reply_texts(result))
        result = await alice.slash(w.channel, "tractor history", season=1)
        assert "Season 1" in said(result)

        await w.restart()
        result = await alice.slash(w.channel, "tractor season list")
        text = said(result)
        assert "Season 1" in text and "Season 2 “Spring”" in text and "now" in text
