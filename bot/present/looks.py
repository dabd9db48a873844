"""How a table looks by how its sides are made: one named value per kind, the one place the
words choose between fixed sides (partnerships, levels per team) and sides made in play
(Finding Friends: levels, points and sides per seat). Ask `look(variant)`, never the mode."""

from __future__ import annotations

from dataclasses import dataclass

from engine.variant import Variant

__all__ = ["FIXED", "FRIENDS_SCOPE", "IN_PLAY", "LOOKS", "Look", "look"]

FRIENDS_SCOPE = "friends"
"""The scope word of a Finding Friends leaderboard's buttons (its players)."""


@dataclass(frozen=True, slots=True)
class Look:
    """The catalog keys (and the few words) a table's kind of sides takes."""

    lobby_seat: str
    """A lobby seat line (with its team, or without)."""
    lobby_notes: tuple[str, ...]
    """Lines under the lobby (``players``: the seats)."""
    creator_first: str
    """The note when a fixed trump seats the table's creator first."""
    rules_summary: str
    """``/tractor rules``' first line."""
    history_title: str
    board_scope: str | None
    """The leaderboard's scope word (None: the scope asked for)."""
    board_empty: str
    board_footer: str
    board_button: str | None
    """The scope a leaderboard's ◀ ▶ ids carry (None: the board's own)."""


FIXED = Look("lobby.seat_line", (), "note.creator_first", "rules.summary", "history.title",
             None, "leaderboard.empty", "leaderboard.footer", None)
"""Sides fixed before the deal: partnerships, levels per team."""
IN_PLAY = Look("lobby.seat_line_friends", ("lobby.friends_mode",),
               "note.creator_first_friends", "rules.summary_friends", "history.friends_title",
               "leaderboard.friends_scope", "leaderboard.friends_empty",
               "leaderboard.friends_footer", FRIENDS_SCOPE)
"""Sides made in play (Finding Friends): every seat on its own until called."""
LOOKS = {True: FIXED, False: IN_PLAY}
"""By `Variant.fixed_sides`."""


def look(variant: Variant) -> Look:
    """How a table of `variant` looks."""
    return LOOKS[variant.fixed_sides]
