"""psycopg connections as the query modules expect them (`bot.storage.interface.Connection`).

The query modules are written once, in the SQL both databases share, with SQLite's ``?``
placeholders (and ``?N`` numbered ones). `PgConnection` rewrites each statement once (then
cached) to psycopg's ``%s``, returns rows readable by name and position (`PgRow`), and
writes Python booleans as 0/1 as SQLite does (the flag columns are INTEGER on both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import psycopg
from psycopg.adapt import Dumper

_PLACEHOLDER = re.compile(r"\?(\d*)")


class PgRow:
    """A row: ``row["column"]`` (the first column of that name) or ``row[0]``."""

    __slots__ = ("_index", "_values")

    def __init__(self, values: Sequence[Any], index: dict[str, int]) -> None:
        self._values = values
        self._index = index

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            return self._values[self._index[key]]
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Any:
        return iter(self._values)

    def keys(self) -> list[str]:
        """The column names, in order."""
        return list(self._index)

    def __repr__(self) -> str:
        return f"PgRow({tuple(self._values)!r})"


def pg_row(cursor: Any) -> Callable[[Sequence[Any]], PgRow]:
    """psycopg row factory making `PgRow`s."""
    index: dict[str, int] = {}
    for i, column in enumerate(cursor.description or ()):
        index.setdefault(column.name, i)
    return lambda values: PgRow(values, index)


class BoolAsInt(Dumper):
    """Python booleans as the integers 0 and 1 (the schema's flags, as in SQLite)."""

    oid = 23  # int4

    def dump(self, obj: Any) -> bytes:
        return b"1" if obj else b"0"


def configure(conn: psycopg.Connection[Any]) -> None:
    """Set up a new connection: autocommit (the engine writes BEGIN/COMMIT itself), rows
    as `PgRow`, booleans as 0/1."""
    conn.autocommit = True
    conn.row_factory = pg_row
    conn.adapters.register_dumper(bool, BoolAsInt)


_CACHE: dict[str, tuple[str, tuple[int, ...] | None]] = {}


def translate(sql: str) -> tuple[str, tuple[int, ...] | None]:
    """``sql`` with psycopg placeholders, and for numbered ``?N`` ones the 0-based index of
    the parameter each ``%s`` takes (None: in order). As SQLite, a bare ``?`` after
    ``?N`` is ``?N+1``."""
    found = _CACHE.get(sql)
    if found is not None:
        return found
    order: list[int] = []
    numbered = False
    biggest = 0

    def placeholder(match: re.Match[str]) -> str:
        nonlocal numbered, biggest
        if match[1]:
            numbered = True
            number = int(match[1])
        else:
            number = biggest + 1
        biggest = max(biggest, number)
        order.append(number - 1)
        return "%s"

    text = _PLACEHOLDER.sub(placeholder, sql.replace("%", "%%"))
    found = (text, tuple(order) if numbered else None)
    if len(_CACHE) < 10_000:
        _CACHE[sql] = found
    return found


def _arguments(order: tuple[int, ...] | None, parameters: Sequence[Any]) -> Sequence[Any]:
    return parameters if order is None else tuple(parameters[i] for i in order)


class PgConnection:
    """A psycopg connection inside one transaction, as a `bot.storage.interface.Connection`."""

    IntegrityError: ClassVar[type[Exception]] = psycopg.IntegrityError

    __slots__ = ("raw",)

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        query, order = translate(sql)
        return self.raw.execute(query, _arguments(order, parameters))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /
                    ) -> psycopg.Cursor[Any]:
        query, order = translate(sql)
        cursor = self.raw.cursor()
        cursor.executemany(query, [_arguments(order, p) for p in parameters])
        return cursor
