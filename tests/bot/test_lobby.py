"""The lobby and table commands: new (one table per channel), join/leave/addbot with seats,
rules with the creator's option selects, start, table (re-post), help, end with
confirmation; every command is under the one /tractor group."""

from __future__ import annotations

from pathlib import Path

from botkit import find, world

from engine.game import Phase


def text(result: object) -> str:
    response = getattr(result, "response", None)
    parts = [response.content or ""] if response is not None else []
    parts += [f.content or "" for f in getattr(result, "followups", [])]
    return "\n".join(parts)


async def test_lobby_commands(tmp_path: Path) -> None:
    async with world(tmp_path, humans=3) as w:
        alice, bob, carol = w.users
        commands = set(alice.available_commands(w.channel))
        assert {"tractor new", "tractor join", "tractor leave", "tractor addbot",
                "tractor start", "tractor end", "tractor table", "tractor hand",
                "tractor help", "tractor rules", "tractor play", "tractor declare",
                "tractor pass", "tractor bury", "tractor back"} <= commands
        result = await alice.slash(w.channel, "tractor help")
        assert "/tractor play" in text(result)
        result = await bob.slash(w.channel, "tractor join")
        assert "no table in this channel" in text(result)

        await w.new_table(turn_timer=60, kitty_multiplier="flat_2")
        doc = await w.doc()
        assert doc.options["turn_timer_s"] == 60 and doc.options["kitty_multiplier"] == "flat_2"
        result = await bob.slash(w.channel, "tractor new")
        assert "already has a table" in text(result)

        result = await bob.slash(w.channel, "tractor join", seat=3)
        assert "seat 3" in text(result)
        result = await carol.slash(w.channel, "tractor join", seat=3)
        assert "Seat 3 is taken" in text(result)
        await carol.slash(w.channel, "tractor join", seat=2)
        result = await carol.slash(w.channel, "tractor join")
        assert "already have a seat" in text(result)
        await carol.slash(w.channel, "tractor leave")
        assert (await w.doc()).seats[1] is None
        await alice.slash(w.channel, "tractor addbot", seat=2)
        assert "<@" in w.table_message().content and "Bot 2" in w.table_message().content

        # rules: everyone sees the options; only the creator gets the selects
        result = await bob.slash(w.channel, "tractor rules")
        assert "Tractor" in text(result) and "Turn timer: 60 s" in text(result)
        assert not result.response.components
        result = await alice.slash(w.channel, "tractor rules")
        shown = result.response
        select = find(shown, "opt", extra=None)
        assert select is not None
        timer = next(c for row in shown.message.components for c in row.children
                     if "turn_timer_s" in c.custom_id)
        await alice.select(shown, ["90"], custom_id=timer.custom_id)
        assert (await w.doc()).options["turn_timer_s"] == 90

        assert find(w.table_message(), "start").disabled  # three seats filled
        result = await bob.slash(w.channel, "tractor start")
        assert "All 4 seats must be filled" in text(result)
        await carol.click(w.table_message(), label="Join")  # the empty seat 4
        doc = await w.doc()
        assert doc.full
        old_table = w.table_message()
        await alice.slash(w.channel, "tractor start")
        match = await w.match()
        assert match.phase is Phase.DECLARING
        assert w.table_message().id != old_table.id  # a new table message for the hand
        result = await bob.slash(w.channel, "tractor table")
        assert "posted again" in text(result)
        reposted = w.table_message()
        assert reposted.id != old_table.id and find(reposted, "myhand") is not None
        result = await bob.slash(w.channel, "tractor hand")
        assert result.ephemeral and "Your hand (5)" in text(result)

        # end: not by a player who did not open it; the creator confirms
        result = await bob.slash(w.channel, "tractor end")
        assert "Only the table's creator" in text(result)
        result = await alice.slash(w.channel, "tractor end")
        assert "End the table anyway?" in text(result)
        await alice.click(result.response, label="Keep playing")
        assert (await w.bot.store.table_in_channel(w.channel.id)) is not None
        result = await alice.slash(w.channel, "tractor end")
        await alice.click(result.response, label="End the table")
        assert (await w.bot.store.table_in_channel(w.channel.id)) is None
        assert "This table is closed" in w.channel.history()[-1].content or any(
            "This table is closed" in m.content for m in w.public_messages())
        result = await alice.slash(w.channel, "tractor new")
        assert "Table opened" in text(result)  # a new table can be opened
