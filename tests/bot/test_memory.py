"""The garbage collector is set up in one place (`bot.runtime.memory.configure`) when the bot is
set up (issue 16): thresholds for a long-lived bot, the start-up heap frozen, full
collections' survivors frozen by the bot's `PauseGuard` until it closes."""

from __future__ import annotations

import gc
from pathlib import Path

from botkit import world

from bot.runtime import memory


async def test_the_collector_is_set_up_with_the_bot(tmp_path: Path) -> None:
    gc.set_threshold(700, 10, 10)  # CPython's defaults, as before any bot
    async with world(tmp_path, humans=1) as w:
        guard = w.bot.pause_guard
        assert gc.get_threshold() == memory.THRESHOLDS
        assert guard is not None and guard._collected in gc.callbacks
        assert gc.get_freeze_count() > 0  # the start-up heap (once per process)
        await w.bot.close_store()
        assert w.bot.pause_guard is None and guard._collected not in gc.callbacks


async def test_the_bot_keeps_no_message_cache(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1) as w:
        await w.open_table(1)
        assert w.bot._connection.max_messages is None and not w.bot.cached_messages
