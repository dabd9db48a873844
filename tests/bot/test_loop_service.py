"""The service's per-move work (issue 16): a computer seat decides from the table its
commit left (no load of its own), and a person who did not ask for forced plays costs no
task per turn once their settings are in memory."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from botkit import by_panel, play_hand, world

from bot.services.autopilot import Autopilot
from bot.services.tables import TableService


async def test_computer_turns_and_turns_without_forced_plays_load_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        await w.start()
        service = w.bot.service
        loads: list[str] = []
        forced: list[int] = []
        real_load = TableService.load
        real_forced = Autopilot._forced_turn

        async def load(self: TableService, table_id: int) -> Any:
            loads.append(sys._getframe(1).f_code.co_name)
            return await real_load(self, table_id)

        async def forced_turn(self: Autopilot, table_id: int, seat: int, *rest: Any) -> None:
            forced.append(seat)
            await real_forced(self, table_id, seat, *rest)

        monkeypatch.setattr(TableService, "load", load)
        monkeypatch.setattr(Autopilot, "_forced_turn", forced_turn)
        computer_moves = 0
        real_apply = service.autopilot._computer_apply

        def computer_apply(*args: Any) -> None:
            nonlocal computer_moves
            computer_moves += 1
            real_apply(*args)

        monkeypatch.setattr(service.autopilot, "_computer_apply", computer_apply)
        await play_hand(w, by_panel)
        assert computer_moves > 20  # the computers played their cards
        assert "_computer_turn" not in loads
        assert len(forced) <= 1  # the first turn reads the settings; then they are known
