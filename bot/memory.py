"""The process's garbage collector, set up once the bot is built (issue 16).

A running bot holds a large, long-lived heap (modules, translation catalogs, fonts,
discord.py's state, the live tables) and makes many short-lived objects per move. The
collector's full passes walk the whole heap again and again: ``freeze`` moves everything
alive once the bot is set up out of its reach (those objects live as long as the process),
so the collector only looks at what the game makes afterwards. Done once per process.
"""

from __future__ import annotations

import gc

__all__ = ["settle_heap"]

_settled = False


def settle_heap() -> bool:
    """Collect, then freeze what survives (the first call in a process only; returns
    whether this call did it)."""
    global _settled
    if _settled:
        return False
    _settled = True
    gc.collect()
    gc.freeze()
    return True
