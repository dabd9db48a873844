"""Logging: one line per record, with the table id and hand number when there is one.

Rules (tests/bot enforce the first):
- never log the cards of a hand not yet played, or the kitty, at INFO or above;
  cards appear in logs only as the public plays (``CardsPlayed``) or at DEBUG;
- never log the token (`RedactFilter` masks it if a library ever does).

Use ``table_logger(table_id, hand_no)`` to get an adapter that prefixes
``table=12 hand=3`` to every message.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

__all__ = ["RedactFilter", "TableLogger", "VoiceNoticeFilter", "line_format", "log",
           "setup_logging", "table_logger"]

log = logging.getLogger("tractor")
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class TableLogger(logging.LoggerAdapter[logging.Logger]):
    """Prefixes ``table=<id> hand=<n>`` to each message (one line per record)."""

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, Any]:
        extra = self.extra or {}
        prefix = f"table={extra.get('table')}"
        if extra.get("hand") is not None:
            prefix += f" hand={extra.get('hand')}"
        return f"{prefix} {msg}", kwargs


def table_logger(table_id: int | None, hand_no: int | None = None) -> TableLogger:
    return TableLogger(log, {"table": table_id, "hand": hand_no})


class RedactFilter(logging.Filter):
    """Replaces a secret in formatted records with ``[redacted]``; keeps records one line."""

    def __init__(self, secret: str | None) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        changed = message
        if self.secret and self.secret in changed:
            changed = changed.replace(self.secret, "[redacted]")
        if "\n" in changed and record.exc_info is None:
            changed = changed.replace("\n", " | ")
        if changed != message:
            record.msg = changed
            record.args = None
        return True


class VoiceNoticeFilter(logging.Filter):
    """Drops discord.py's start-up warnings about optional voice libraries (PyNaCl,
    davey): the bot has no voice, and they would be the first lines of every start."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "discord.client"
                    and "voice will NOT be supported" in str(record.msg))


def line_format(cluster: str = "") -> str:
    """The record format; a cluster's name (CLUSTER_NAME) follows the level on every line."""
    if not cluster:
        return FORMAT
    return FORMAT.replace("%(name)s", f"cluster={cluster.replace('%', '%%')} %(name)s")


def setup_logging(level: int | str = logging.INFO, *, secret: str | None = None,
                  cluster: str = "") -> None:
    """Configure the root logger once: stderr, one line per record (with ``cluster=<name>``
    when one is given), discord.py at WARNING unless DEBUG was asked for."""
    if isinstance(level, str):
        level = int(getattr(logging, level.upper(), logging.INFO))
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(line_format(cluster)))
    handler.addFilter(RedactFilter(secret))
    handler.addFilter(VoiceNoticeFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord").setLevel(level if level <= logging.DEBUG else logging.WARNING)
