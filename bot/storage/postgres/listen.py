"""PostgreSQL notifications (``LISTEN``) handed to an event loop, from a thread of their own.

The event loop never waits on the database: one dedicated thread holds one connection
(autocommit, outside the pool) that LISTENs on a channel and blocks in psycopg's
``notifies`` (a bounded wait, so that `Listener.close` is seen); each notification's payload
is handed to the loop with ``call_soon_threadsafe`` (``wake(payload)``). A lost connection
(the server restarted, the connection was killed) is opened again after a pause growing
from `RECONNECT_MIN` to `RECONNECT_MAX` seconds; after every (re)connection the loop is
woken once with ``wake(None)``, since what was notified while nobody listened is gone: the
listener's user looks for it then. `Listener.listening` says whether notifications arrive
now (a user polls faster while they do not).

A notification is sent by ``pg_notify`` inside the transaction that makes the change, so it
is delivered at its COMMIT, never for a change rolled back.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

__all__ = ["Listener"]

WAIT = 0.5
"""Seconds the thread waits for a notification before it looks whether it was closed."""
RECONNECT_MIN = 0.1
RECONNECT_MAX = 5.0
CONNECT: dict[str, Any] = {"connect_timeout": 5, "keepalives": 1, "keepalives_idle": 10,
                           "keepalives_interval": 5, "keepalives_count": 3}
"""A connection that only waits must still notice a peer gone silently (TCP keepalives;
a Unix socket ignores them): about 25 s."""

Wake = Callable[[str | None], None]
"""Called on the loop: a notification's payload, or None after a (re)connection."""


class Listener:
    """One channel's notifications delivered to `loop` (see the module). `start`, then
    `close` (awaitable: it waits for the thread, off the loop)."""

    def __init__(self, conninfo: str, channel: str, loop: asyncio.AbstractEventLoop,
                 wake: Wake) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.loop = loop
        self.wake = wake
        self.connects = 0
        """Connections made (a reconnection adds one)."""
        self.pid: int | None = None
        """The server process of the current connection (None while there is none)."""
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"tractor-listen-{channel}",
                                        daemon=True)

    @property
    def listening(self) -> bool:
        """Whether the connection is up and LISTENing (notifications arrive)."""
        return self._listening.is_set()

    def start(self) -> None:
        self._thread.start()

    async def close(self) -> None:
        """Stop listening; returns once the thread has ended (within `WAIT` seconds)."""
        self._stop.set()
        if self._thread.is_alive():
            await asyncio.to_thread(self._thread.join)

    # ---- on the listener's thread ---------------------------------------------------------

    def _post(self, payload: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            self.loop.call_soon_threadsafe(self.wake, payload)

    def _run(self) -> None:
        pause = RECONNECT_MIN
        while not self._stop.is_set():
            try:
                conn = psycopg.connect(self.conninfo, autocommit=True, **CONNECT)
            except psycopg.Error:
                self._stop.wait(pause)
                pause = min(pause * 2, RECONNECT_MAX)
                continue
            pause = RECONNECT_MIN
            try:
                with conn:
                    self._listen(conn)
            except psycopg.Error:
                pass  # lost: connect again
            finally:
                self._listening.clear()
                self.pid = None

    def _listen(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        self.pid = conn.info.backend_pid
        self.connects += 1
        self._listening.set()
        self._post(None)  # what was notified while nobody listened: look now
        while not self._stop.is_set():
            for note in conn.notifies(timeout=WAIT):
                self._post(note.payload)
