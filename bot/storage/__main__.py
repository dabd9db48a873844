"""``python -m bot.storage backup PATH [--database DB] [--force]``: online backup of an
SQLite file; ``python -m bot.storage copy SQLITE_FILE DATABASE_URL``: copy it into an
empty PostgreSQL database keeping every id (`bot.storage.copy`).

DB defaults to ``DATABASE_PATH`` (environment or ``.env``), else ./data/tractor.sqlite3.
Prints one line; exits 1 with a one-line error on failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dotenv import find_dotenv, load_dotenv

from .errors import StorageError
from .sqlite.backup import backup_database, database_path_from_env


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot.storage", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    backup = sub.add_parser("backup", help="copy the live database to PATH (safe while running)")
    backup.add_argument("path", metavar="PATH", help="where to write the copy")
    backup.add_argument("--database", metavar="DB", help="database to back up")
    backup.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    copy = sub.add_parser("copy", help="copy an SQLite database into an empty PostgreSQL one"
                          " (ids kept; stop the bot first)")
    copy.add_argument("source", metavar="SQLITE_FILE", help="the database to copy")
    copy.add_argument("target", metavar="DATABASE_URL", help="postgresql://... (empty)")
    args = parser.parse_args(argv)
    if args.command == "copy":
        return _copy(args.source, args.target)

    load_dotenv(find_dotenv(usecwd=True))  # the environment wins over .env
    source = args.database or database_path_from_env()
    try:
        info = backup_database(source, args.path, overwrite=args.force)
    except (StorageError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {info.source} to {info.dest} "
          f"({info.size} bytes, schema version {info.schema_version})")
    return 0


def _copy(source: str, target: str) -> int:
    import asyncio

    from .copy import copy_database

    try:
        info = asyncio.run(copy_database(source, target))
    except (StorageError, OSError) as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{n} {table}" for table, n in info.rows.items() if n)
    print(f"copied {info.source} to {info.target}: {counts or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
