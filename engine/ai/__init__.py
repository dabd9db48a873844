"""Computer players for Tractor: `make_player("random" | "greedy" | "ai", seed)`.

A player answers every decision of its seat — declare or pass, bury, lead, follow — from
`view_for(seat)` alone, deterministically given its seed.
"""

from engine.ai.players import PLAYERS, AiPlayer, GreedyPlayer, Player, RandomPlayer, make_player

__all__ = ["PLAYERS", "AiPlayer", "GreedyPlayer", "Player", "RandomPlayer", "make_player"]
