"""Where a match stands (below every module that asks)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a match stands."""

    DECLARING = "declaring"
    BURYING = "burying"
    CALLING = "calling"
    """Finding Friends only: the starter calls friends (F4) between burying and playing."""
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    MATCH_OVER = "match_over"
