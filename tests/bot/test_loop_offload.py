"""The worker pool's answers come back onto the event loop without a thread (issue 16):
the loop reads the workers' pipes itself, answers that arrived together share one wakeup,
and each answer reaches its own caller exactly once, in the order its worker finished."""

from __future__ import annotations

import array
import asyncio
import fcntl
import os
import pickle
import signal
import termios
import time
from collections.abc import Iterator

import pytest

from bot.runtime import offload


@pytest.fixture
def workers() -> Iterator[offload.Workers]:
    made = offload.Workers(2)
    try:
        yield made
    finally:
        made.shutdown()


@pytest.fixture
def pool(workers: offload.Workers) -> offload._Pool:
    assert workers.pool is not None
    return workers.pool


def _echo(value: object) -> tuple[object, int]:
    return value, os.getpid()


def _nap(seconds: float, value: object) -> object:
    time.sleep(seconds)
    return value


def _waiting_bytes(fd: int) -> int:
    found = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, found)
    return found[0]


async def test_answers_that_arrived_together_share_one_wakeup() -> None:
    workers = offload.Workers(1)
    try:
        pool = workers.pool
        assert pool is not None
        pid = await workers.run(os.getpid)  # up
        futures = [pool.submit(_echo, (n,)) for n in range(3)]
        expected = sum(4 + len(pickle.dumps((True, (n, pid)), pickle.HIGHEST_PROTOCOL))
                       for n in range(3))
        fd = pool.workers[0].fd
        deadline = time.perf_counter() + 60  # a hang detector only (the loop is held)
        while _waiting_bytes(fd) < expected and time.perf_counter() < deadline:
            time.sleep(0.01)
        before = pool.wakeups
        assert await asyncio.gather(*futures) == [(0, pid), (1, pid), (2, pid)]
        assert pool.wakeups - before == 1  # three answers, one wakeup of the loop
    finally:
        workers.shutdown()


async def test_every_answer_reaches_its_caller_once_in_order(
        pool: offload._Pool, workers: offload.Workers) -> None:
    finished: list[int] = []

    async def job(n: int) -> None:
        value, _ = await workers.run(_echo, n)
        finished.append(int(str(value)))

    await asyncio.gather(*(job(n) for n in range(40)))
    assert sorted(finished) == list(range(40))  # each answered once, to its own job
    per_worker: dict[int, list[int]] = {}
    order: list[tuple[int, int]] = []

    async def timed(n: int) -> None:
        value, pid = await workers.run(_echo, n)
        order.append((pid, int(str(value))))

    await asyncio.gather(*(timed(n) for n in range(20)))
    for pid, n in order:
        per_worker.setdefault(pid, []).append(n)
    for numbers in per_worker.values():  # a worker's answers come in the order it ran them
        assert numbers == sorted(numbers)


async def test_a_cancelled_jobs_answer_goes_to_nobody_else(
        pool: offload._Pool, workers: offload.Workers) -> None:
    await workers.run(os.getpid)
    slow = asyncio.ensure_future(workers.run(_nap, 0.3, "slow"))
    while not any(w.queue for w in pool.workers):
        await asyncio.sleep(0)
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    assert await asyncio.gather(*(workers.run(_nap, 0.0, n) for n in range(4))) == [0, 1, 2, 3]


async def test_a_worker_that_died_idle_is_noticed_and_replaced(
        pool: offload._Pool, workers: offload.Workers) -> None:
    pids = set(await asyncio.gather(*(workers.run(os.getpid) for _ in range(4))))
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    while not pool.broken:  # its closed pipe wakes the loop
        await asyncio.sleep(0.01)
    assert workers.pool is pool  # replaced when next used
    pid = await workers.run(os.getpid)
    assert pid not in pids and workers.pool is not pool


async def test_an_answer_larger_than_the_pipe_arrives_whole(
        pool: offload._Pool, workers: offload.Workers) -> None:
    size = 3 * offload.PIPE_SIZE + 12345  # several reads, frames split anywhere
    first, second = await asyncio.gather(workers.run(bytes, size), workers.run(_echo, "after"))
    assert first == bytes(size) and second[0] == "after"
