"""Skill ratings with openskill's Plackett-Luce model (default parameters).

After every settled hand whose four seats are distinct humans (and whose match never had a
computer seat), the winning side's two players form one team and the losing side the other:
``rate([[w1, w2], [l1, l2]])``. Each partnership also has its own rating, updated as a
one-member team per side. Everyone starts at mu 25, sigma 25/3.

Display rating = the ordinal ``mu - 3 * sigma``: a conservative estimate (the skill is
~99.7% likely above it). It starts at 0 and rises as results accumulate and sigma shrinks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


def display_rating(mu: float, sigma: float) -> float:
    """The rating shown to players: ``mu - 3 * sigma``."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: mean and uncertainty."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def display(self) -> float:
        """See `display_rating`."""
        return display_rating(self.mu, self.sigma)


def rate_win(winners: Sequence[Skill], losers: Sequence[Skill]) -> tuple[list[Skill], list[Skill]]:
    """New skills after ``winners`` (one team) beat ``losers`` (one team)."""
    teams = [
        [MODEL.rating(mu=s.mu, sigma=s.sigma) for s in winners],
        [MODEL.rating(mu=s.mu, sigma=s.sigma) for s in losers],
    ]
    won, lost = MODEL.rate(teams, ranks=[1.0, 2.0])
    return [Skill(r.mu, r.sigma) for r in won], [Skill(r.mu, r.sigma) for r in lost]
