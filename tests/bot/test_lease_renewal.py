"""Issue 37: the lease renewer never dies silently. Any error renewing is a failed renewal;
failing for two thirds of the lease suspends the process (it owns nothing); once the
database answers again it holds its shards again at new epochs if no other process took
them (its tables restored, no restart), else it is fenced. Time is simulated."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from bot.services.ownership import ShardLeases


class FakeLeases:
    """A lease store whose renewals fail (any exception) while `failing`; `taken`: shards
    another process took over meanwhile."""

    kind = "sqlite"

    def __init__(self) -> None:
        self.failing: BaseException | None = None
        self.expired = False
        self.taken: set[int] = set()
        self.epochs: dict[int, int] = {}
        self.released: list[int] = []

    async def acquire(self, shard: int, owner: str, ttl: float) -> int | None:
        if self.failing is not None:
            raise self.failing
        if shard in self.taken:
            return None
        self.epochs[shard] = self.epochs.get(shard, 0) + (1 if self.expired or
                                                          shard not in self.epochs else 0)
        return self.epochs[shard]

    async def renew(self, owner: str, epochs: Mapping[int, int], ttl: float) -> bool:
        if self.failing is not None:
            raise self.failing
        return not self.expired

    async def release(self, owner: str, epochs: Mapping[int, int]) -> None:
        self.released += list(epochs)


class Time:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def run_for(clock: Time, seconds: float) -> None:
    """Let the renewer run `seconds` of simulated time (or stop, if it does first)."""
    end = clock.now + seconds
    for _ in range(100_000):
        if clock.now >= end:
            return
        await asyncio.sleep(0)


def state(a: ShardLeases) -> tuple[bool, bool, dict[int, int]]:
    """(suspended, fenced, epochs) as the renewer left them."""
    return a.suspended, a.fenced, dict(a.epochs)


def leases(store: FakeLeases, clock: Time, events: list[str]) -> ShardLeases:
    async def regained() -> None:
        events.append("regained")

    return ShardLeases(store, owner="a", shard_count=2, shard_ids=[0, 1], ttl=3.0,
                       on_fenced=lambda reason: events.append("fenced"),
                       on_regained=regained, monotonic=clock, sleep=clock.sleep)


async def test_an_untranslated_error_is_a_failed_renewal_and_the_shards_are_held_again(
        ) -> None:
    store, clock, events = FakeLeases(), Time(), list[str]()
    a = leases(store, clock, events)
    assert await a.acquire(wait=0) and a.epochs == {0: 1, 1: 1}
    a.start()
    store.failing = RuntimeError("terminating connection due to idle-in-transaction timeout")
    await run_for(clock, 1.9)  # under two thirds of the lease: still held
    assert state(a) == (False, False, {0: 1, 1: 1})
    await run_for(clock, 1.0)
    assert state(a) == (True, False, {}) and not a.owns(0)  # the renewer is alive
    await run_for(clock, 30.0)  # the database is down past the lease
    assert state(a) == (True, False, {})
    store.failing, store.expired = None, True
    await run_for(clock, 1.0)  # back: nobody took the shards
    assert state(a) == (False, False, {0: 2, 1: 2}) and events == ["regained"]
    store.expired = False
    await run_for(clock, 5.0)
    assert a.epochs == {0: 2, 1: 2} and not a.fenced
    await a.release()


async def test_a_shard_taken_over_meanwhile_fences_the_process() -> None:
    store, clock, events = FakeLeases(), Time(), list[str]()
    a = leases(store, clock, events)
    assert await a.acquire(wait=0)
    a.start()
    store.failing = OSError("connection reset")
    await run_for(clock, 10.0)
    store.failing, store.expired, store.taken = None, True, {1}
    await run_for(clock, 2.0)
    assert a.fenced and events == ["fenced"] and a.epochs == {}
    assert store.released == [0]  # what it took back on the way is given back
    await a.release()


async def test_a_refused_renewal_after_a_pause_fences_when_taken_over() -> None:
    store, clock, events = FakeLeases(), Time(), list[str]()
    a = leases(store, clock, events)
    assert await a.acquire(wait=0)
    a.start()
    store.expired, store.taken = True, {0, 1}  # paused past the lease, taken over
    await run_for(clock, 1.5)
    assert a.fenced and events == ["fenced"]
    await a.release()
