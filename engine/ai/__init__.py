"""Computer players for Tractor: `make_player(name_or_level, seed)`.

Names `random`, `greedy`, `expert`, `ai1`, `ai`; levels `easy`, `normal`, `strong` (see
`engine.ai.registry`). A player answers every decision of its seat — declare or pass, bury,
lead, follow — from `view_for(seat)` alone, deterministically given its seed.
"""

from engine.ai.expert import ExpertPlayer
from engine.ai.players import Ai1Player, GreedyPlayer, Player, RandomPlayer
from engine.ai.registry import (
    CHOICES,
    DEFAULT_LEVEL,
    LEVEL_PLAYERS,
    LEVELS,
    PLAYERS,
    make_player,
    player_name,
)
from engine.ai.search import AiPlayer

__all__ = [
    "CHOICES",
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_PLAYERS",
    "PLAYERS",
    "Ai1Player",
    "AiPlayer",
    "ExpertPlayer",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
    "player_name",
]
