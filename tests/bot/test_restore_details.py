"""What a restart restores (issue 6): timers re-armed from the stored deadlines (a deadline
that passed while the bot was down gets a short grace, one still far enough away is kept),
the table message refreshed with "restored after a restart" (re-posted when it is gone),
and the DM panels edited in place."""

from __future__ import annotations

from pathlib import Path

import discord
from botkit import TEST_CONFIG, World, by_panel, seats_to_act, world

from bot.app.client import discord_clock as now
from engine.game import Phase

RESTORED = "restored after a restart"


async def alice_to_play(w: World, limit: int = 200) -> None:
    """Alice (seat 0, the only human) acts on her DM panel until she is to play a card."""
    for _ in range(limit):
        match = await w.match()
        public = match.public_view()
        if public.phase is Phase.PLAYING and public.turn == 0:
            return
        assert seats_to_act(match) == [0] or public.phase is Phase.DECLARING, public.phase
        await by_panel(w, 0)
    raise AssertionError("alice never got to play")


def message(channel: object, message_id: int) -> discord.Message:
    for m in channel.history():  # type: ignore[attr-defined]
        if m.id == message_id:
            return m
    raise AssertionError(f"no message {message_id}")


async def test_restart_regrace_timers_refresh_table_and_edit_dm_panels(tmp_path: Path) -> None:
    grace = TEST_CONFIG.restart_grace
    async with world(tmp_path, humans=1, hand_pause=30) as w:
        alice = w.users[0]
        await w.open_table(1, turn_timer=60, declare_window=30)
        await w.start()
        await alice_to_play(w)
        doc = await w.doc()
        deadline, step = doc.deadline, doc.step
        assert doc.timer == "turn" and deadline is not None
        # the newest DM panel (its id may not be saved yet: the closing bot saves it)
        panel_id = max(m.id for m in w.dms(alice))
        dm_count = len(w.dms(alice))
        table_id_before = doc.table_message

        # ---- a quick restart: the deadline is still far enough away, so it is kept
        await w.restart()
        doc = await w.doc()
        assert doc.deadline == deadline and doc.step == step and doc.restored
        table = w.table_message()
        assert table.id == table_id_before
        assert RESTORED in table.content and f"<t:{int(deadline)}:R>" in table.content
        assert (await w.doc()).seat(0).panel_message == panel_id
        panel = message(alice.user.dm_channel, panel_id)
        assert RESTORED in panel.content  # the DM panel was edited in place …
        assert len(w.dms(alice)) == dm_count  # … not sent again

        # ---- downtime: the bot is down while the deadline passes; the table message is
        # deleted meanwhile (a moderator cleaned up the channel)
        await w.bot.service.close()
        await w.env.advance_time(90)
        assert (await w.doc()).step == step  # nothing happened while the bot was down
        mods = w.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
        mod = w.guild.add_member(w.env.create_user("mod"), roles=[mods])
        await mod.delete(table)
        await w.restart()

        doc = await w.doc()
        assert doc.step == step and doc.deadline is not None
        assert abs(doc.deadline - (now() + grace)) < 1.0  # a short grace from now
        table = w.table_message()  # re-posted, with the restored line and the new countdown
        assert table.id != table_id_before and doc.table_message == table.id
        assert RESTORED in table.content and f"<t:{int(doc.deadline)}:R>" in table.content
        panel = message(alice.user.dm_channel, panel_id)
        assert RESTORED in panel.content and f"<t:{int(doc.deadline)}:R>" in panel.content
        assert len(w.dms(alice)) == dm_count

        # ---- the re-armed timer fires at the new deadline, not before
        played = len((await w.match()).public_view().played)
        await w.env.advance_time(grace - 1)
        match = await w.match()
        assert match.public_view().turn == 0 and len(match.public_view().played) == played
        await w.env.advance_time(2)
        doc = await w.doc()
        assert doc.seat(0).misses == 1
        assert "Time's up: the computer played for alice" in w.table_message().content
        assert RESTORED not in w.table_message().content  # shown until the game moves on


async def test_lobby_restart_refreshes_the_table_message(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        lobby = w.table_message()
        assert RESTORED not in lobby.content
        await w.restart()
        refreshed = w.table_message()
        assert refreshed.id == lobby.id and RESTORED in refreshed.content
        # the lobby buttons from before the restart still work
        await w.users[0].click(refreshed, label="Add bot")
        await w.users[0].click(w.table_message(), label="Add bot")
        await w.start()
        assert (await w.match()).phase is Phase.DECLARING
