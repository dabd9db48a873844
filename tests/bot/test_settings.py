"""Players' settings (bot.storage user settings, set by /tractor settings): a player who
chose the My hand panel gets no DM panels; the language setting localizes their panel."""

from __future__ import annotations

from pathlib import Path

from botkit import world


async def test_panel_and_language_settings(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        alice, bob = w.users
        await w.bot.store.set_user_settings(bob.id, panel="ephemeral")
        await w.bot.store.set_user_settings(alice.id, language="zh_Hans")
        await w.open_table(2)
        dms_before = len(w.dms(bob))
        await w.start()
        assert len(w.dms(bob)) == dms_before  # only the welcome DM from joining
        assert "你的手牌" in w.dm_panel(alice).content
        result = await bob.click(w.table_message(), label="My hand")
        assert result.response is not None and "Your hand (5)" in result.response.content
