"""Errors the bot shows to a user (ephemerally) rather than logs as bugs."""

from __future__ import annotations

from typing import Any

__all__ = ["UserFacingError"]


class UserFacingError(Exception):
    """A message from the catalog for the user who acted: ``key`` and its format kwargs."""

    def __init__(self, key: str, /, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs
