"""The offline gate of the model of how the others follow (issue 40):
`python -m tools.policy_gate --train TRAIN.jsonl.gz --test TEST.jsonl.gz [--weights FILE]`.

On follows of a seed not used in fitting (only those with a choice: two options or more),
the mean log-likelihood of the chosen option and the top-1 accuracy for (a) uniform over
the options, (b) a greedy baseline: mass `p` on the `greedy` player's choice, the rest
spread evenly (`p` the best on the training file), (c) the same with the `expert` player's
choice, (d) the model; overall and by who followed. Passes when (d) beats (a), (b) and (c).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine.ai.others import WEIGHTS_PATH
from tools.policy_fit import Data, load, log_chances


def baseline(data: Data, picks: np.ndarray, p: float) -> np.ndarray:
    """(N,): the log-chance of the chosen option with mass `p` on `picks`' option."""
    sizes = np.diff(data.start)
    hit = picks == data.label
    spread = np.where(picks >= 0, (1 - p) / np.maximum(sizes - 1, 1), 1.0 / sizes)
    return np.log(np.where(hit, p, spread))


def best_mass(data: Data, picks: np.ndarray) -> float:
    """The mass on `picks` that maximises the likelihood on `data`."""
    grid = np.linspace(0.05, 0.99, 95)
    return float(max(grid, key=lambda p: baseline(data, picks, p).mean()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.policy_gate", description=__doc__)
    parser.add_argument("--train", required=True)
    parser.add_argument("--test", required=True)
    parser.add_argument("--weights", default=str(WEIGHTS_PATH))
    args = parser.parse_args(argv)
    w = np.array(json.loads(Path(args.weights).read_text(encoding="utf-8"))["w"])
    train, test = load(args.train), load(args.test)
    sizes = np.diff(test.start)
    choice = sizes >= 2
    logp = log_chances(test, w)
    top = np.maximum.reduceat(logp, test.start[:-1])
    model = logp[test.label]
    masses = {name: best_mass(train, getattr(train, name)) for name in ("greedy", "expert")}
    rows = {
        "uniform": (-np.log(sizes), 1.0 / sizes),
        "greedy": (baseline(test, test.greedy, masses["greedy"]),
                   (test.greedy == test.label).astype(float)),
        "expert": (baseline(test, test.expert, masses["expert"]),
                   (test.expert == test.label).astype(float)),
        "model": (model, (model >= top - 1e-12).astype(float)),
    }
    kinds = np.array(test.kind)
    out = [f"{int(choice.sum())} test follows with a choice (of {len(sizes)}); "
           f"mean options {sizes[choice].mean():.2f}; greedy mass {masses['greedy']:.2f}, "
           f"expert mass {masses['expert']:.2f}",
           f"{'who':10} {'n':>6} " + " ".join(f"{n + ' ll':>11} {n[:3] + ' top1':>8}"
                                              for n in rows)]
    for who in ("all", *sorted(set(test.kind))):
        sel = choice & ((kinds == who) if who != "all" else True)
        cells = " ".join(f"{ll[sel].mean():11.3f} {acc[sel].mean():8.3f}"
                         for ll, acc in rows.values())
        out.append(f"{who:10} {int(sel.sum()):6d} {cells}")
    print("\n".join(out))
    best = rows["model"][0][choice].mean()
    passed = all(best > ll[choice].mean() for name, (ll, _) in rows.items() if name != "model")
    print("gate:", "PASS" if passed else "FAIL")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
