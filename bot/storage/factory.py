"""The one factory that picks a storage backend from where the database is.

A ``postgresql://`` (or ``postgres://``) address opens PostgreSQL
(`bot.storage.postgres`, needs the ``postgres`` extra: ``pip install -e '.[postgres]'``);
anything else is an SQLite file path (`bot.storage.sqlite`). A new backend adds its scheme
here and a subpackage with an `Engine` and its migrations.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from urllib.parse import parse_qsl, urlsplit

from .errors import StorageError
from .interface import DEFAULT_READERS, DEFAULT_WRITE_TIMEOUT, Engine

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str | os.PathLike[str]) -> bool:
    """True if ``target`` is a PostgreSQL address rather than an SQLite file path."""
    return isinstance(target, str) and target.strip().lower().startswith(URL_SCHEMES)


def display(url: str) -> str:
    """A PostgreSQL address as it may be shown and logged: user, host, port, database and
    socket folder, never the password."""
    try:
        parts = urlsplit(url.strip())
        user, host, port = parts.username, parts.hostname, parts.port
    except ValueError:
        return "postgresql://(unreadable address)"
    socket = [v for k, v in parse_qsl(parts.query) if k == "host"]
    text = f"postgresql://{user + '@' if user else ''}{host or ''}"
    text += f":{port}" if port else ""
    text += parts.path or "/"
    return text + (f"?host={socket[0]}" if socket else "")


async def open_engine(target: str | os.PathLike[str], *, clock: Callable[[], float] = time.time,
                      write_timeout: float = DEFAULT_WRITE_TIMEOUT,
                      readers: int = DEFAULT_READERS) -> Engine:
    """Open, check, migrate and prove writable the database at ``target`` (see
    `bot.storage.Store.open`)."""
    if is_url(target):
        try:
            from .postgres.database import Database as PgDatabase
        except ImportError as exc:  # the extra is not installed
            raise StorageError(
                "DATABASE_URL needs PostgreSQL support: pip install 'tractor-bot[postgres]'"
                f" ({exc})") from exc
        return await PgDatabase.open(str(target).strip(), clock=clock,
                                     write_timeout=write_timeout, readers=readers)
    from .sqlite.database import Database

    return await Database.open(os.fspath(target), clock=clock, write_timeout=write_timeout,
                               readers=readers)
