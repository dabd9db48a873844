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


IDLE_IN_TRANSACTION = 2.0
"""Seconds a session may sit idle inside a transaction before the server ends it
(``idle_in_transaction_session_timeout``): a process paused mid-transaction (SIGSTOP, a
long GC, a frozen VM) lets go of its row locks and its SERIALIZABLE snapshot this soon,
well below a shard lease (`Config.lease_seconds`, 15 s; the lease must stay above it), so
a take-over and the other clusters' writes never wait for it longer."""
STATEMENT_TIMEOUT = 10.0
"""Seconds any one statement (and any lock wait) may take by default; a write sets its own
tighter ones from its write timeout (`Database._begin_write`)."""

SESSION_SETTINGS = (
    ("idle_in_transaction_session_timeout", IDLE_IN_TRANSACTION),
    ("statement_timeout", STATEMENT_TIMEOUT),
    ("lock_timeout", STATEMENT_TIMEOUT),
)
"""What `configure` sets on every connection (milliseconds on the server), so a stock
server needs no setting of its own; every user may set these (no superuser right)."""


def session_sql(settings: tuple[tuple[str, float], ...] = SESSION_SETTINGS) -> str:
    """The ``SET`` statements giving a session `settings` (seconds)."""
    return "; ".join(f"SET {name} = {max(1, int(seconds * 1000))}"
                     for name, seconds in settings)


def configure(conn: psycopg.Connection[Any]) -> None:
    """Set up a new connection: autocommit (the engine writes BEGIN/COMMIT itself), rows
    as `PgRow`, booleans as 0/1, the session's timeouts (`SESSION_SETTINGS`)."""
    conn.autocommit = True
    conn.execute(session_sql())
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
