"""Fit the model of how the others follow (issue 40): `python -m tools.policy_fit --data
TRAIN.jsonl.gz [--out engine/ai/others_weights.json]`.

Reads follows from `tools.policy_data`, builds every option's features with
`engine.ai.others` (the code the players run), and fits the softmax weights by full-batch
Adam on the mean log-loss of the chosen option, with a little L2 (numpy, the `train`
extra). Deterministic. `load` (the rows as arrays, with the greedy and expert players'
choices as baselines) also serves `tools.policy_gate`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from engine.ai.context import Knowledge
from engine.ai.expert import cards_key, expert_play
from engine.ai.others import FEATURES, WEIGHTS_PATH, features, options_of, sighted_expert
from engine.ai.players import greedy_play
from engine.ai.policy import TrackedInfo
from engine.ai.tables import TrackedTable
from engine.cards import card_of_code
from tools.belief_data import read, seen_from_dict

L2 = 1e-3
STEPS = 400


@dataclass(slots=True)
class Data:
    """One row per option; options of a follow are contiguous (`start[i]`..`start[i+1]`)."""

    x: np.ndarray  # (R, F)
    start: np.ndarray  # (N + 1,) first row of each follow
    label: np.ndarray  # (N,) the chosen option's row
    greedy: np.ndarray  # (N,) greedy's choice's row, -1 if not among the options
    expert: np.ndarray  # (N,) expert's choice's row, -1 if not among the options
    kind: list[str]  # (N,) who followed


def _record(record: dict[str, Any]) -> tuple[list[list[float]], int, int, int, str]:
    seen = seen_from_dict(record["seen"])
    assert seen.current is not None
    plays = [list(p) for p in seen.current.plays]
    chosen = [card_of_code(c) for c in record["play"]]
    hands = [[card_of_code(c) for c in h] for h in record["hands"]]
    kitty = sum(card_of_code(c).points for c in record["kitty"])
    sighted = sighted_expert(hands, seen.current.leader, plays, seen.starter, kitty,
                             seen.trump, seen.rules)
    options = options_of(seen.hand, plays, seen.trump, sighted, chosen)
    rows = features(seen.hand, plays, seen.trump, seen.rules.throw_ruff, seen.is_declarer,
                    options, sighted)
    keys = [cards_key(o) for o in options]
    k = Knowledge.of(seen)
    greedy = cards_key(greedy_play(TrackedInfo(k)))
    expert = cards_key(expert_play(TrackedTable(k)))
    return (rows, keys.index(cards_key(chosen)), keys.index(greedy) if greedy in keys else -1,
            keys.index(expert) if expert in keys else -1, record["kind"])


def load(path: str, jobs: int = 2) -> Data:
    """The follows of a `tools.policy_data` file as arrays."""
    with Pool(jobs) as pool:
        done = pool.map(_record, read(path), chunksize=64)
    x: list[list[float]] = []
    start, label, greedy, expert, kind = [0], [], [], [], []
    for rows, chosen, greedy_at, expert_at, who in done:
        base = len(x)
        x += rows
        start.append(len(x))
        label.append(base + chosen)
        greedy.append(base + greedy_at if greedy_at >= 0 else -1)
        expert.append(base + expert_at if expert_at >= 0 else -1)
        kind.append(who)
    return Data(np.array(x, dtype=np.float64), np.array(start), np.array(label),
                np.array(greedy), np.array(expert), kind)


def log_chances(data: Data, w: np.ndarray) -> np.ndarray:
    """(R,): each option's log-chance under weights `w`."""
    z = data.x @ w
    starts = data.start[:-1]
    top = np.maximum.reduceat(z, starts)
    sizes = np.diff(data.start)
    shifted = z - np.repeat(top, sizes)
    norm = np.log(np.add.reduceat(np.exp(shifted), starts))
    return shifted - np.repeat(norm, sizes)


def fit(data: Data, steps: int = STEPS, l2: float = L2) -> np.ndarray:
    """The weights minimising the mean log-loss of the chosen options (plus L2)."""
    w = np.zeros(data.x.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    n = len(data.label)
    for step in range(1, steps + 1):
        p = np.exp(log_chances(data, w))
        expected = np.add.reduceat(data.x * p[:, None], data.start[:-1])
        grad = (expected - data.x[data.label]).sum(axis=0) / n + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.policy_fit", description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    data = load(args.data, args.jobs)
    w = fit(data)
    loss = -float(log_chances(data, w)[data.label].mean())
    sys.stderr.write(f"{len(data.label)} follows, train log-loss {loss:.4f}\n")
    Path(args.out).write_text(json.dumps(
        {"features": list(FEATURES), "w": [round(float(x), 5) for x in w]}, indent=1) + "\n",
        encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
