"""The Discord bot: services, storage, rendering, views and cogs (docs/architecture.md).

``bot.create_bot(database)`` returns an unstarted `commands.Bot` (see bot/app/client.py).
Importing ``bot`` itself stays light: `create_bot` is imported on first use, so
``bot.storage`` or ``bot.i18n`` can be used without loading the whole client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app.client import TractorBot, create_bot

__all__ = ["TractorBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from bot.app import client

        return getattr(client, name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
