"""From a `PlayerView` (all a computer player may see) to the AI's `Seen`."""

from __future__ import annotations

from engine.ai.context import Seen, Trick
from engine.views import PlayerView


def seen_of(view: PlayerView) -> Seen:
    """The play-phase knowledge of `view.seat`, built from its view only."""
    public = view.public
    assert public.trump is not None and public.starter is not None
    done = public.tricks_played * 4
    tricks = tuple(
        Trick(public.played[i][0], tuple(cards for _, cards in public.played[i:i + 4]))
        for i in range(0, done, 4)
    )
    current = None
    if public.trick is not None and not public.trick.complete:
        current = Trick(public.trick.leader, public.trick.plays)
    return Seen(
        seat=view.seat,
        trump=public.trump,
        hand=view.hand,
        starter=public.starter,
        tricks=tricks,
        current=current,
        kitty=view.kitty if view.seat == public.starter else None,
        shown=tuple((d.seat, d.cards) for d in public.declarations),
        failed_throws=tuple((f.seat, f.attempted) for f in public.failed_throws),
        opp_points=public.opponent_points,
        rules=public.rules,
    )
