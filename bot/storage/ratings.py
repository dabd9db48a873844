"""Skill ratings with openskill's Plackett-Luce model (default parameters), per guild and
season (a new season starts everyone afresh; ratings are stored, not recomputed, because
each update depends on every earlier one).

Ratings are kept per mode: the four-player game (teams) and Finding Friends are rated
apart. After every settled hand whose seats were held from start to end by distinct
humans (and whose match never had a computer seat or a seat change within a hand), the
winning side's players form one team and the losing side the other:
``rate([[w1, w2], [l1, l2]])`` where the sides are fixed partnerships
(`Variant.fixed_sides`, the four-player game); each partnership also has its own rating,
updated as a one-member team per side.

In Finding Friends the sides are the starter with the friends who turned up against
everyone else, and they may differ in size (two against three with five players, a lone
starter against five when the calls came to nothing). Plackett-Luce would add up a side's
skills, so the larger side would always be the favourite and a win by the smaller one
would count several times a win by the larger: the rating would reward being the starter.
Instead each side plays as **one player of its average skill** (`side_skill`: mean mu,
root-mean-square sigma) in a one-against-one Plackett-Luce game, and every member moves by
that player's change, scaled by their own share of the uncertainty, as openskill moves a
team's members (`rate_sides`). So a hand between equally rated players is an even contest
whatever the sides' sizes, and beating a better-rated side gains more.
Everyone starts at mu 25, sigma 25/3.

Display rating = the ordinal ``mu - 3 * sigma``: a conservative estimate (the skill is
~99.7% likely above it). It starts at 0 and rises as results accumulate and sigma shrinks.
`record_hand` applies a settled hand to the ``ratings`` and ``pair_ratings`` tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from openskill.models import PlackettLuce

from .interface import Connection
from .records import HandRecord
from .sql import one

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


def side_skill(skills: Sequence[Skill]) -> Skill:
    """A side as one player: its members' mean mu and root-mean-square sigma."""
    return Skill(sum(s.mu for s in skills) / len(skills),
                 math.sqrt(sum(s.sigma ** 2 for s in skills) / len(skills)))


def _moved(skills: Sequence[Skill], before: Skill, after: Skill) -> list[Skill]:
    """Each member moved by its side's change, scaled by its share of the side's variance
    (openskill's per-member update, with sigma bounded below as openskill bounds it)."""
    shrink = 1.0 - (after.sigma / before.sigma) ** 2
    out = []
    for s in skills:
        share = (s.sigma / before.sigma) ** 2
        out.append(Skill(s.mu + share * (after.mu - before.mu),
                         s.sigma * math.sqrt(max(1.0 - share * shrink, MODEL.kappa))))
    return out


def rate_sides(winners: Sequence[Skill], losers: Sequence[Skill]
               ) -> tuple[list[Skill], list[Skill]]:
    """New skills after the side ``winners`` beat the side ``losers`` (Finding Friends):
    one-against-one between the sides' average skills (see the module docstring)."""
    won, lost = side_skill(winners), side_skill(losers)
    (new_won,), (new_lost,) = rate_win([won], [lost])
    return _moved(winners, won, new_won), _moved(losers, lost, new_lost)


def _skill(db: Connection, sql: str, *key: int | str) -> Skill:
    row = one(db, sql, *key)
    return Skill() if row is None else Skill(row["mu"], row["sigma"])


def rate_teams(won: Sequence[Sequence[Skill]], lost: Sequence[Sequence[Skill]]
               ) -> list[list[Skill]]:
    """New skills after the teams ``won`` (tied first) beat the teams ``lost`` (tied
    second), in that order; one team each: `rate_win`."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in (*won, *lost)]
    rated = MODEL.rate(teams, ranks=[1.0] * len(won) + [2.0] * len(lost))
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def record_hand(db: Connection, hand_id: int, guild_id: int, season: int,
                rec: HandRecord, now: float) -> None:
    """Rate a settled hand of distinct humans in the hand's mode (in the caller's
    transaction) and mark the hand rated. Fixed sides (`Variant.fixed_sides`): each team
    is an openskill team, the winning one first, and each partnership of two is rated too
    as a one-member team; sides made in play: `rate_sides`."""
    assert rec.declarers is not None and rec.result_side is not None
    variant, mode, seats = rec.variant, str(rec.mode), rec.seats
    declarers = set(rec.declarers)
    won = declarers if rec.result_side == "declarers" else set(range(seats)) - declarers
    user = [cast(int, player) for player in rec.players]
    player = ("SELECT mu, sigma FROM ratings WHERE guild_id = ? AND season = ? AND mode = ?"
              " AND user_id = ?")

    def skills(team: Sequence[int]) -> list[Skill]:
        return [_skill(db, player, guild_id, season, mode, u) for u in team]

    teams: list[list[int]] = []  # fixed sides: the users of each team, the winners first
    if variant.fixed_sides:
        sides = sorted(variant.sides(seats), key=lambda side: side[0] not in won)
        teams = [[user[s] for s in side] for side in sides]
        count = sum(1 for side in sides if side[0] in won)
        rated = rate_teams([skills(t) for t in teams[:count]],
                           [skills(t) for t in teams[count:]])
        users = [u for team in teams for u in team]
        new = [s for team in rated for s in team]
    else:
        users = [user[s] for s in sorted(won)] + [user[s] for s in range(seats) if s not in won]
        new_w, new_l = rate_sides(skills(users[:len(won)]), skills(users[len(won):]))
        new = [*new_w, *new_l]
    db.executemany(
        "INSERT INTO ratings (guild_id, season, mode, user_id, mu, sigma, hands, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, season, mode, user_id)"
        " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, hands = ratings.hands + 1,"
        " updated_at = excluded.updated_at",
        [(guild_id, season, mode, u, s.mu, s.sigma, now) for u, s in zip(users, new, strict=True)],
    )
    if teams and all(len(team) == 2 for team in teams):
        _rate_pairs(db, guild_id, season, mode, [sorted(t) for t in teams[:count]],
                    [sorted(t) for t in teams[count:]], now)
    db.execute("UPDATE hands SET rated = 1 WHERE id = ?", (hand_id,))


def _rate_pairs(db: Connection, guild_id: int, season: int, mode: str,
                won: list[list[int]], lost: list[list[int]], now: float) -> None:
    """Rate the partnerships of a fixed-sides hand, each a one-member team: the winning
    one first, the losing ones tied second (two partnerships: `rate_win`)."""
    pair = ("SELECT mu, sigma FROM pair_ratings WHERE guild_id = ? AND season = ?"
            " AND mode = ? AND user_lo = ? AND user_hi = ?")
    pairs = [*won, *lost]
    rated = rate_teams([[_skill(db, pair, guild_id, season, mode, *p)] for p in won],
                       [[_skill(db, pair, guild_id, season, mode, *p)] for p in lost])
    db.executemany(
        "INSERT INTO pair_ratings (guild_id, season, mode, user_lo, user_hi, mu, sigma, hands,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, season, mode, user_lo, user_hi) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, hands = pair_ratings.hands + 1,"
        " updated_at = excluded.updated_at",
        [(guild_id, season, mode, *p, r.mu, r.sigma, now)
         for p, (r,) in zip(pairs, rated, strict=True)],
    )
