"""Telling a PostgreSQL address from an SQLite path, and showing one without its password."""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, urlsplit

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
