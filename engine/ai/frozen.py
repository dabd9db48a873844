"""Earlier `ai` players, frozen for paired comparisons (do not tune them; `ai1` is in
`engine.ai.players`). Each pins the search settings it played with, so tuning `ai` leaves it
unchanged (its decisions are pinned in tests/ai/test_ai_pinned.py).

- `ai2`: the search with the hand-set inference (`inference.infer`): `ai` until issue 40.
- `ai3`: the search with the learned card-location model (`belief.learned_belief`, the
  weights shipped by issue 30: weights fitted again belong in a new file, not that one):
  issue 30's `ai-belief`, promoted to `ai` by issue 40.
"""

from __future__ import annotations

from engine.ai.belief import learned_belief
from engine.ai.inference import infer
from engine.ai.search import AiPlayer, utility


class Ai2Player(AiPlayer):
    """The second `ai`, frozen as `ai2`: search over deals drawn from `inference.infer`."""

    value = staticmethod(utility)
    declarer_work = 1.6
    work = 2800
    max_samples = 60
    believe = staticmethod(infer)
    others_temper = 0.0
    bias = 1.0
    margin = 1.5


class Ai3Player(Ai2Player):
    """The learned belief's `ai` (issue 30's `ai-belief`), frozen as `ai3`."""

    believe = staticmethod(learned_belief)
