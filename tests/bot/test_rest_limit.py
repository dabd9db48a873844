"""The REST budget in the real bot (SimCord): its hook on discord.py's HTTP client counts
the calls made by channel id and lets interaction calls through; and against a simulated
global limit (`tools.bench_traffic.GlobalLimit`, Discord's 429 with ``X-RateLimit-Global``)
a bot under a budget below the limit meets none, where the same game without one does."""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path

import pytest
from botkit import world

from engine.game import Phase
from tools.bench_traffic import GlobalLimit, busiest_second


async def test_the_hook_counts_channel_calls_not_interaction_calls(tmp_path: Path) -> None:
    async with world(tmp_path, humans=1, rest_budget=1000.0) as w:
        # no token carries the channel's messages (bot/ui/carry.py): by channel id
        w.bot.publisher.carriers.life = timedelta(0)
        limit = GlobalLimit()
        undo = limit.install()
        try:
            before = sum(w.bot.budget.granted.values())
            await w.open_table(1)
            await w.start()
            await w.bot.publisher.idle()
        finally:
            undo()
        granted = sum(w.bot.budget.granted.values()) - before
        kinds = {kind for _, kind in limit.counted}
        assert {"send channel", "edit channel"} <= kinds  # the table message
        assert "send dm" in kinds  # the hand panel
        assert granted == len(limit.counted) > 0  # every counted call, and only those
        assert limit.free["answer deferred message"] > 0  # the clicks' answers: not counted
        assert limit.free["patch original"] > 0  # nor their edits through the token


@pytest.mark.parametrize("budget", [math.inf, 4.0], ids=["no budget", "budget 4/s"])
async def test_under_a_budget_below_the_limit_no_global_429(tmp_path: Path,
                                                           budget: float) -> None:
    async with world(tmp_path, humans=1, rest_budget=budget, debug_start_level="A") as w:
        # no token carries the table message (bot/ui/carry.py): its edits are counted
        w.bot.publisher.carriers.life = timedelta(0)
        await w.open_table(1, turn_timer=0)
        await w.env.advance_time(5.0)  # the table message, edited within the budget
        await w.start()
        limit = GlobalLimit(5.0)
        undo = limit.install()
        try:
            def autopilot(tx: object) -> None:
                tx.doc.seat(0).autopilot = True  # type: ignore[attr-defined]
            await w.bot.service.transact(w.table_id, autopilot)  # the computers play on
            for _ in range(600):  # virtual seconds: the budget's waits are virtual too
                await w.env.advance_time(1.0)
                phase = (await w.match()).phase
                # the last table edit may still wait out its (stretched) edit interval: a
                # virtual timer, which only advance_time fires (idle() alone would stall)
                if (phase is Phase.MATCH_OVER and not w.bot.budget.waiting
                        and not w.bot.publisher.busy):
                    break
            await w.bot.publisher.idle()
        finally:
            undo()
        assert (await w.match()).phase is Phase.MATCH_OVER  # debug level A: one hand
        busiest = busiest_second(sorted(t for t, _ in limit.counted))
        if math.isinf(budget):
            assert sum(limit.refused.values()) > 0  # the same game meets the limit
        else:
            assert sum(limit.refused.values()) == 0
            assert 0 < busiest <= 4
            assert "The match is over" in w.table_message().content  # the last state got out
