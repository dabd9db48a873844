"""The REST budget (bot/runtime/budget.py), on a clock the test drives: priorities, never
more than the rate in any window, the table interval's stretch under pressure and its
log line's throttle. No wall clock: `Clock.sleep` waits until the test advances time."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
from collections.abc import Iterator

import pytest

from bot.runtime.budget import (
    MAX_TABLE_INTERVAL,
    Priority,
    RestBudget,
    counted,
    current_priority,
    rest_priority,
)


class Clock:
    """Time that moves only by `advance`; `sleep` wakes when it passes."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(0.0, seconds), next(self._order),
                                        future))
        await future

    async def settle(self) -> None:
        for _ in range(20):
            await asyncio.sleep(0)

    async def advance(self, seconds: float, step: float = 0.01) -> None:
        """Move time forward in small steps, waking sleepers as they fall due."""
        end = self.now + seconds
        while self.now < end - 1e-12:
            self.now = min(end, self.now + step)
            while self._sleepers and self._sleepers[0][0] <= self.now + 1e-12:
                _, _, future = heapq.heappop(self._sleepers)
                if not future.done():
                    future.set_result(None)
            await self.settle()


def budget(rate: float) -> tuple[RestBudget, Clock]:
    clock = Clock()
    return RestBudget(rate, clock=clock, sleep=clock.sleep), clock


async def calls(budget: RestBudget, clock: Clock, priorities: list[Priority],
                granted: list[tuple[float, Priority, int]]) -> list[asyncio.Task[None]]:
    """Ask for one call per priority (in this order); note when each is granted."""
    async def one(index: int, priority: Priority) -> None:
        await budget.acquire(priority)
        granted.append((clock.now, priority, index))
    tasks = [asyncio.create_task(one(i, p)) for i, p in enumerate(priorities)]
    await clock.settle()
    return tasks


def most_in_any_window(times: list[float], window: float = 1.0) -> int:
    times = sorted(times)
    return max((sum(1 for t in times if start <= t < start + window - 1e-9)
                for start in times), default=0)


async def test_never_more_than_the_rate_in_any_second() -> None:
    rest, clock = budget(5)
    granted: list[tuple[float, Priority, int]] = []
    tasks = await calls(rest, clock, [Priority.OTHER] * 23, granted)
    assert len(granted) == 5  # the first five at once
    await clock.advance(3.5)
    more = await calls(rest, clock, [Priority.TABLE] * 4, granted)
    await clock.advance(3.0)
    await asyncio.gather(*tasks, *more)
    assert len(granted) == 27
    assert most_in_any_window([t for t, _, _ in granted]) == 5
    assert rest.granted[Priority.OTHER] == 23 and rest.granted[Priority.TABLE] == 4


async def test_below_one_a_second_one_call_every_one_over_the_rate() -> None:
    rest, clock = budget(0.5)
    granted: list[tuple[float, Priority, int]] = []
    tasks = await calls(rest, clock, [Priority.OTHER] * 3, granted)
    await clock.advance(5.0)
    await asyncio.gather(*tasks)
    assert [round(t, 2) for t, _, _ in granted] == [0.0, 2.0, 4.0]


async def test_notices_go_first_and_each_priority_in_order() -> None:
    rest, clock = budget(2)
    granted: list[tuple[float, Priority, int]] = []
    order = [Priority.OTHER, Priority.OTHER, Priority.OTHER, Priority.TABLE,
             Priority.OTHER, Priority.TABLE, Priority.NOTICE, Priority.NOTICE]
    tasks = await calls(rest, clock, order, granted)
    await clock.advance(4.0)
    await asyncio.gather(*tasks)
    # the first two at once (the slots were free); then notices, tables, the rest, each
    # first come first served
    assert [index for _, _, index in granted] == [0, 1, 6, 7, 3, 5, 2, 4]


async def test_a_notice_never_waits_behind_a_queue_of_tables() -> None:
    rest, clock = budget(10)
    granted: list[tuple[float, Priority, int]] = []
    tables = await calls(rest, clock, [Priority.TABLE] * 60, granted)
    await clock.advance(0.5)
    notice = await calls(rest, clock, [Priority.NOTICE], granted)
    await clock.advance(1.0)
    await asyncio.gather(*notice)
    asked, when = 0.5, next(t for t, p, _ in granted if p is Priority.NOTICE)
    assert when - asked <= 1.0 / rest.rate * 10 + 1e-9  # at the next free slot
    assert when <= 1.0 + 1e-9
    for task in tables:
        task.cancel()
    await asyncio.gather(*tables, return_exceptions=True)  # none left on the loop


async def test_a_cancelled_wait_leaves_the_line() -> None:
    rest, clock = budget(1)
    granted: list[tuple[float, Priority, int]] = []
    tasks = await calls(rest, clock, [Priority.OTHER] * 3, granted)
    tasks[1].cancel()
    await clock.advance(2.0)
    await asyncio.gather(*tasks, return_exceptions=True)
    # (the one behind it, asleep until its own slot, is not woken early: a slot is lost)
    assert [(round(t, 2), index) for t, _, index in granted] == [(0.0, 0), (2.0, 2)]
    assert rest.waiting == 0


async def test_the_priority_comes_from_the_context() -> None:
    rest, _ = budget(1)
    assert current_priority() is Priority.OTHER
    with rest_priority(Priority.NOTICE):
        assert current_priority() is Priority.NOTICE
        await rest.acquire()
    assert current_priority() is Priority.OTHER
    assert rest.granted[Priority.NOTICE] == 1


async def test_no_limit() -> None:
    rest, _ = budget(math.inf)
    for _ in range(1000):
        await rest.acquire()
    assert rest.granted[Priority.OTHER] == 1000 and rest.table_interval(1.0) == 1.0


ASKED: list[asyncio.Future[None]] = []


@pytest.fixture(autouse=True)
def _cancel_asked() -> Iterator[None]:
    yield
    for asked in ASKED:
        asked.cancel()
    ASKED.clear()


async def offered(rest: RestBudget, clock: Clock, seconds: float, per_second: float,
                  priority: Priority = Priority.TABLE) -> None:
    """`per_second` calls a second for `seconds` (not awaited: demand, not grants)."""
    for _ in range(round(seconds * per_second)):
        ASKED.append(asyncio.ensure_future(rest.acquire(priority)))
        await clock.advance(1.0 / per_second)


async def test_the_table_interval_stretches_under_pressure_and_eases_back(
        caplog: pytest.LogCaptureFixture) -> None:
    rest, clock = budget(10)
    await offered(rest, clock, 6, 5)  # half the rate: no stretch
    assert rest.table_interval(1.0) == 1.0
    await offered(rest, clock, 4, 14)  # 1.4× the rate: longer, smoothly
    first = rest.table_interval(1.0)
    assert 1.0 < first <= 2.0
    await offered(rest, clock, 4, 14)
    second = rest.table_interval(1.0)
    assert first < second <= MAX_TABLE_INTERVAL
    await offered(rest, clock, 10, 40)  # far above: capped
    assert rest.table_interval(1.0) == MAX_TABLE_INTERVAL
    assert rest.table_interval(12.0) == 12.0  # never shorter than asked
    steps = []
    for _ in range(20):  # quiet: the queue drains, then back to the base step by step
        await offered(rest, clock, 4, 1)
        steps.append(rest.table_interval(1.0))
    assert steps == sorted(steps, reverse=True) and steps[0] > 1.0 and steps[-1] == 1.0
    assert rest.table_interval(0.0) == 0.0


async def test_slowed_tables_are_logged_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    rest, clock = budget(10)
    with caplog.at_level(logging.INFO, logger="tractor.budget"):
        for _ in range(40):  # 120 s at 3× the rate, the interval asked for every 3 s
            await offered(rest, clock, 3, 30)
            rest.table_interval(1.0)
    lines = [r for r in caplog.records if r.name == "tractor.budget"]
    assert len(lines) == 2  # at 0 s (of pressure) and a minute later, not every time
    assert "table messages are edited every" in lines[0].getMessage()


def test_interaction_endpoints_are_not_counted() -> None:
    assert counted("/channels/1/messages")
    assert counted("/channels/{channel_id}/messages/{message_id}")
    assert counted("/users/@me/channels")
    assert counted("/webhooks/{webhook_id}")
    assert not counted("/interactions/{interaction_id}/{interaction_token}/callback")
    assert not counted("/interactions/12/abc/callback")
    assert not counted("/webhooks/{webhook_id}/{webhook_token}")
    assert not counted("/webhooks/34/tok/messages/@original")
    assert not counted("/webhooks/34/tok/messages/56")


def test_a_cluster_takes_its_shards_share_of_the_budget() -> None:
    from bot.runtime.config import Config

    def budget_of(**env: str) -> float:
        base = {"DATABASE_URL": "postgresql://tractor@db/tractor", "REST_BUDGET": "45"}
        return Config.from_env({**base, **env}, require_token=False).process_rest_budget

    assert budget_of() == 45.0  # one process: all of it
    assert budget_of(SHARD_COUNT="4") == 45.0  # every shard here
    assert budget_of(SHARD_COUNT="4", CLUSTER_INDEX="1", CLUSTER_COUNT="2") == 22.5
    assert budget_of(SHARD_COUNT="4", SHARD_IDS="0-2") == 33.75
    assert budget_of(SHARD_COUNT="4", SHARD_IDS="3", DISCORD_API_BASE="http://proxy:8080/api/v10",
                     REST_BUDGET="100") == 25.0  # with a proxy too
