"""One process per database file (issue 31 item 4).

Two bots (or two ``make play``) on one SQLite file would both run its tables and fire
their own timeouts. So each process takes an exclusive lock on a file beside the database
(``<database>.lock``, `lock_path`) before it opens anything, and holds it for its whole
life: the operating system releases it when the process ends, however it ends, so a
crash leaves no stale lock. The lock file keeps the holder's process id for the message.

A database that is not a file path (a URL such as ``postgresql://…``) is not locked here.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["DatabaseInUse", "hold", "lock_path"]

_held: dict[Path, int] = {}  # lock file -> descriptor, kept open for the process's life


class DatabaseInUse(Exception):
    """Another process holds the database's lock; the message is one line."""


def lock_path(database: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(database)}.lock")


def hold(database: str | os.PathLike[str]) -> None:
    """Take the database's lock for the rest of this process, or raise `DatabaseInUse`.

    Taking it twice in one process is a no-op. A lock file that cannot be created (a
    read-only folder) is skipped: opening the database then fails with its own message."""
    text = os.fspath(database)
    if "://" in text:
        return
    path = lock_path(text).resolve()
    if path in _held:
        return
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = ""
        with contextlib.suppress(OSError, ValueError):
            holder = os.pread(descriptor, 32, 0).decode().strip()
        os.close(descriptor)
        by = f" (process {holder})" if holder.isdigit() else ""
        raise DatabaseInUse(
            f"{text} is already in use by another tractor-bot{by}: stop that one first, "
            "or use another file with --database PATH") from None
    with contextlib.suppress(OSError):
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, str(os.getpid()).encode(), 0)
    _held[path] = descriptor
