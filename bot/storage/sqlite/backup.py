"""Online backups with SQLite's backup API (safe while the bot is writing)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from bot.storage.errors import DatabaseCorrupt, StorageError
from bot.storage.records import BackupInfo

from .migrate import check_header, is_corruption

DEFAULT_DATABASE_PATH = "./data/tractor.sqlite3"


def database_path_from_env() -> str:
    """``DATABASE_PATH`` from the environment, else `DEFAULT_DATABASE_PATH`."""
    return os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE_PATH


def backup_database(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], *, overwrite: bool = False
) -> BackupInfo:
    """Copy the live database ``source`` to ``dest`` as one consistent snapshot.

    The copy is written next to ``dest`` and renamed into place, is a self-contained file
    (rollback journal, no -wal), and is integrity-checked. Never modifies ``source``.
    Raises `StorageError` (or `DatabaseCorrupt`) with a readable message.
    """
    src, dst = Path(source), Path(dest)
    if not src.is_file():
        raise StorageError(f"no database at {src}")
    check_header(src)
    if dst.exists() and (dst.is_dir() or dst.resolve() == src.resolve()):
        raise StorageError(f"cannot back up {src} onto {dst}")
    if dst.exists() and not overwrite:
        raise StorageError(f"{dst} already exists (use --force to overwrite)")
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".partial")
    tmp.unlink(missing_ok=True)
    try:
        # mode=rw: never create the source; the backup itself only reads it.
        src_conn = sqlite3.connect(src.resolve().as_uri() + "?mode=rw", uri=True)
        try:
            dst_conn = sqlite3.connect(tmp)
            try:
                src_conn.backup(dst_conn)
                dst_conn.execute("PRAGMA journal_mode = DELETE")
                check = dst_conn.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    raise DatabaseCorrupt(src, f"the copy failed its integrity check: {check}")
                try:
                    row = dst_conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
                    version = int(row[0] or 0)
                except sqlite3.OperationalError:
                    version = 0
            finally:
                dst_conn.close()
        finally:
            src_conn.close()
        os.replace(tmp, dst)
    except sqlite3.Error as exc:
        if is_corruption(exc):
            raise DatabaseCorrupt(src, str(exc)) from exc
        raise StorageError(f"backup of {src} to {dst} failed: {exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    return BackupInfo(src, dst, dst.stat().st_size, version)
