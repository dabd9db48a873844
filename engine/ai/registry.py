"""Every computer player by name, and the strength levels a table can choose.

Names: `random`, `greedy`, `expert`, `ai1` (the first `ai`, frozen) and `ai` (the main
player: search over deals drawn from the learned belief). Levels: `easy` (`greedy`),
`normal` (`expert`), `strong` (`ai`, the default). `make_player` takes either,
case-insensitively, and the names of `FROZEN`, `SPARRING` and `EXPERIMENTS` (for the
arenas; not offered to tables).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.ai.control import ControlPlayer
from engine.ai.expert import ExpertPlayer
from engine.ai.friends import friends_player
from engine.ai.frozen import Ai2Player, Ai3Player
from engine.ai.players import Ai1Player, GreedyPlayer, Player, RandomPlayer
from engine.ai.search import (
    AiBolderPlayer,
    AiBoldLoosePlayer,
    AiBoldPlayer,
    AiOthersAllPlayer,
    AiOthersLightPlayer,
    AiOthersPlayer,
    AiPlayer,
)
from engine.rules import Mode
from engine.views import PlayerView

PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
    "ai1": Ai1Player,
    "ai": AiPlayer,
}
"""Player factories by name (each takes a seed)."""

FROZEN: dict[str, Callable[[int], Player]] = {"ai2": Ai2Player, "ai3": Ai3Player}
"""Earlier `ai` players kept unchanged for paired comparisons (`engine.ai.frozen`): `ai2`
the search with the hand-set inference (`ai` until issue 40), `ai3` with the learned belief
(issue 30's `ai-belief`). `make_player` and the arenas take them; not offered to tables."""

SPARRING: dict[str, Callable[[int], Player]] = {"control": ControlPlayer}
"""Frozen rule players of other styles than `expert`'s, to measure `ai` against players
nobody tuned it against (`make_player` and the arenas take them; not offered to tables;
Finding Friends: the rule player). `control`: card counting and trump control
(`engine.ai.control`)."""

EXPERIMENTS: dict[str, Callable[[int], Player]] = {
    "ai-others": AiOthersPlayer, "ai-others-light": AiOthersLightPlayer,
    "ai-others-all": AiOthersAllPlayer, "ai-bold": AiBoldPlayer, "ai-bolder": AiBolderPlayer,
    "ai-bold-loose": AiBoldLoosePlayer,
}
"""Variants of `ai` under trial: `make_player` and the arena take them; they are not
offered to tables and not listed among the choices. `ai-others`: the search's deals kept by
the learned model of how the others follow (issue 40, not yet better: docs/computers.md);
`ai-others-light` the same tempered gently (τ 0.5, pool 2); `ai-others-all` scoring the
follows of every trick. `ai-bold`, `ai-bolder`, `ai-bold-loose`: the search overriding the
expert rules' play more readily (`clear_winner`'s bias / margin 0.5 / 1.0, 0.0 / 1.0 and
0.5 / 0.5 instead of `ai`'s 1.0 / 1.5)."""

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
"""Strength levels, weakest first."""

CHOICES: tuple[str, ...] = (*PLAYERS, *LEVELS)
"""Every name and level `make_player` takes (experiments aside), for messages."""

DEFAULT_LEVEL = "strong"

LEVEL_PLAYERS: dict[str, str] = {"easy": "greedy", "normal": "expert", "strong": "ai"}
"""The player each level plays with."""


def _factories() -> dict[str, Callable[[int], Player]]:
    """Every player `make_player` builds, by name."""
    return {**PLAYERS, **FROZEN, **SPARRING, **EXPERIMENTS}


def player_name(name_or_level: str) -> str:
    """The player name for a name or a level (`"Strong"` → `"ai"`); `ValueError` if neither."""
    key = name_or_level.strip().lower()
    key = LEVEL_PLAYERS.get(key, key)
    if key not in _factories():
        choices = ", ".join(CHOICES)
        raise ValueError(f"unknown player {name_or_level!r}; choose from {choices}")
    return key


class ByMode:
    """A computer player for every game mode: the player of the mode a view plays decides
    (chosen by the variant's stored value, `RuleSet.mode`)."""

    def __init__(self, players: dict[Mode, Player]) -> None:
        self.players = players

    def decide(self, view: PlayerView) -> Action:
        return self.players[view.public.rules.mode].decide(view)


def make_player(name_or_level: str = DEFAULT_LEVEL, seed: int = 0) -> Player:
    """A computer player by name or level, deterministic given `seed`, for every mode: the
    four-player game with the registry's player, Finding Friends with its Friends player at
    the same level (`engine.ai.friends.FRIENDS_PLAYERS`, F1–F6; an experiment: `ai`'s)."""
    name = player_name(name_or_level)
    return ByMode({Mode.TEAMS: _factories()[name](seed),
                   Mode.FRIENDS: friends_player("ai" if name in EXPERIMENTS else name, seed)})
