"""Storage exceptions. Everything the storage layer raises on purpose is a `StorageError`."""

from __future__ import annotations

import os


class StorageError(Exception):
    """Base class for storage failures the bot should report rather than crash on."""


class DatabaseCorrupt(StorageError):
    """The file is not a readable Tractor database; it was left untouched."""

    def __init__(self, path: str | os.PathLike[str], detail: str, *,
                 hint: str | None = None) -> None:
        self.path = os.fspath(path)
        self.detail = detail
        super().__init__(
            f"{self.path}: {detail}. " + (hint or "The file was not modified; restore it from"
                                          " a backup or point DATABASE_PATH at another file.")
        )


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot; it was left untouched."""

    def __init__(self, path: str | os.PathLike[str], found: int, known: int) -> None:
        self.path = os.fspath(path)
        self.found = found
        self.known = known
        super().__init__(
            f"{self.path}: schema version {found} is newer than this code knows "
            f"(up to {known}). Upgrade the bot; the database was not modified."
        )


class TableExists(StorageError):
    """The channel already has a table that has not ended."""

    def __init__(self, channel_id: int, table_id: int | None) -> None:
        self.channel_id = channel_id
        self.table_id = table_id
        super().__init__(f"channel {channel_id} already has an open table (id {table_id})")


class TableNotFound(StorageError, LookupError):
    """No table with this id."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(f"no table with id {table_id}")


class StaleVersion(StorageError):
    """Compare-and-set failed: the table moved on (other version, or it has ended)."""

    def __init__(self, table_id: int, expected: int, actual: int, status: str) -> None:
        self.table_id = table_id
        self.expected = expected
        self.actual = actual
        self.status = status
        why = "has ended" if status == "ended" else f"is at version {actual}"
        super().__init__(f"table {table_id} {why}, expected version {expected}")


class StorageBusy(StorageError):
    """Another writer held the database longer than the write timeout; nothing was written.

    Safe to retry: the bot answers "try again" for the one table that tried to write.
    """

    def __init__(self, path: str | os.PathLike[str], timeout: float) -> None:
        self.path = os.fspath(path)
        self.timeout = timeout
        super().__init__(
            f"{self.path}: the database stayed locked by another writer for {timeout:g} s; "
            "nothing was written, try again"
        )


class DatabaseNotWritable(StorageError):
    """The database cannot be written (read-only file or folder, full disk, I/O error)."""

    def __init__(self, path: str | os.PathLike[str], detail: str, *,
                 hint: str | None = None) -> None:
        self.path = os.fspath(path)
        self.detail = detail
        super().__init__(
            f"{self.path}: cannot write the database ({detail}); " + (
                hint or "check that the file and its folder are writable and that the disk"
                " has free space")
        )


class DatabaseUnavailable(StorageError):
    """The database server could not be used: out of reach, login refused, no such
    database, or the connection was lost and not regained within the time allowed."""

    def __init__(self, path: str | os.PathLike[str], detail: str) -> None:
        self.path = os.fspath(path)
        self.detail = detail
        super().__init__(f"{self.path}: cannot use the database ({detail})")


class SeasonNotFound(StorageError, LookupError):
    """The guild has no season with this number."""

    def __init__(self, guild_id: int, season: int) -> None:
        self.guild_id = guild_id
        self.season = season
        super().__init__(f"guild {guild_id} has no season {season}")
