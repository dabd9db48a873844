"""Computer strength levels (issue 10): the names a table chooses (``easy``, ``normal``,
``strong``) and the engine player each one plays with (`engine.ai.make_player`).

A computer seat stores its level in the table document (`bot.core.table.Seat.level`); None
(documents written before levels) means the server-wide default, ``TRACTOR_COMPUTER``.
"""

from __future__ import annotations

from engine.ai import DEFAULT_LEVEL, LEVEL_PLAYERS, LEVELS, player_name

__all__ = ["DEFAULT_LEVEL", "LEVELS", "level_of", "player_name"]


def level_of(name_or_level: str) -> str:
    """The level a player name or level plays at, as shown on a seat (``ai`` → ``strong``;
    a player without a level, like ``random``, is shown by its name)."""
    key = name_or_level.strip().lower()
    if key in LEVELS:
        return key
    for level, player in reversed(LEVEL_PLAYERS.items()):  # the strongest first
        if player == key:
            return level
    return key
