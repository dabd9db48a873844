"""The hand panel's ``Type…`` modal (issue 36): opened at once, kept nowhere (its id is the
submission's verb, routed like a click), so a restart between opening and submitting
loses nothing, and another cluster can apply it (tests/bot/test_dm_forward.py)."""

from __future__ import annotations

from pathlib import Path

from botkit import find, forge, reply_texts, world

from bot.present.text import cards_text
from engine.game import Phase


async def test_typed_cards_survive_a_restart_and_are_checked_like_a_click(
        tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        match = await w.match()
        assert match.phase is Phase.DECLARING
        user = w.users[0]
        seat = (await w.doc()).seat_of(user.id)
        assert seat is not None
        legal = match.view_for(seat).legal_declarations
        assert legal  # the seeded deal
        panel = w.dm_panel(user)
        shown = await user.user.click(panel, custom_id=find(panel, "type").custom_id)
        assert shown.modal is not None
        assert shown.modal["custom_id"].endswith(f":typed:{seat}.declare")
        assert not w.bot._connection._view_store._modals  # kept nowhere

        # The modal's id pressed as a button (a modified client): not on the message.
        forged = await forge(user.user, panel, shown.modal["custom_id"])
        assert "not valid" in " ".join(reply_texts(forged))

        second = await user.user.click(panel, custom_id=find(panel, "type").custom_id)
        await w.restart()
        version = await w.version()
        cards = " ".join(str(card) for card in legal[0])
        result = await user.user.submit_modal(shown, {"cards": cards})
        assert reply_texts(result) == [f"You declared {cards_text(legal[0])}."]
        assert await w.version() > version

        # A second modal opened on the same panel, submitted after the table moved on:
        # refused (the step, or here the rules), nothing saved.
        version = await w.version()
        result = await user.user.submit_modal(second, {"cards": cards})
        assert await w.version() == version
        assert "Not allowed" in " ".join(reply_texts(result)), reply_texts(result)


async def test_the_modal_of_the_my_hand_panel_in_the_server(tmp_path: Path) -> None:
    async with world(tmp_path, humans=2) as w:
        await w.open_table(2)
        await w.start()
        match = await w.match()
        user = w.users[0]
        seat = (await w.doc()).seat_of(user.id)
        assert seat is not None
        legal = match.view_for(seat).legal_declarations
        assert legal  # the seeded deal
        panel = (await user.click(w.table_message(), label="My hand")).response
        assert panel is not None and panel.ephemeral
        shown = await user.click(panel, custom_id=find(panel, "type").custom_id)
        assert shown.modal is not None
        cards = " ".join(str(card) for card in legal[0])
        result = await user.submit_modal(shown, {"cards": cards})
        assert reply_texts(result) == [f"You declared {cards_text(legal[0])}."]
