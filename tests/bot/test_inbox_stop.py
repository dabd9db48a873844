"""A stopping owner's inbox loop ends (`Inbox.serve` is cancelled when its process stops):
a cancellation that comes just as the wait for a notification ends is never lost. Python
3.11's `asyncio.wait_for` lost it (the inner wait done, the cancel swallowed), and the loop
went on: a fenced cluster process never exited (met in a cluster soak, issue 37's faults)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from bot.services.inbox import Inbox

HOUR = 3600.0


class Listening:
    """The owner's notifications, up (the wait is the long `fallback` one)."""

    listening = True


@pytest.mark.parametrize("steps", range(8))
async def test_a_cancel_as_a_notification_ends_the_wait_is_not_lost(steps: int) -> None:
    inbox = Inbox(cast(Any, None), poll=HOUR, fallback=HOUR)
    inbox.listener = cast(Any, Listening())
    woken = asyncio.Event()
    task = asyncio.create_task(inbox._idle(woken))
    for _ in range(3):
        await asyncio.sleep(0)  # waiting for the notification
    assert not task.done()
    woken.set()  # a notification ...
    for _ in range(steps):
        await asyncio.sleep(0)
    if task.done():  # the wait ended before the stop: nothing to lose
        return
    task.cancel()  # ... and the process stopping, at the same moment
    with pytest.raises(asyncio.CancelledError):
        await task
