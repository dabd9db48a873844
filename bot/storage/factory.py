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

from .address import is_url
from .errors import StorageError
from .interface import DEFAULT_READERS, DEFAULT_WRITE_TIMEOUT, Engine


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
