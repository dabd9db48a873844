"""The offline gate of the card-location model (issue 30):
`python -m tools.belief_gate --data TEST.jsonl.gz [--weights FILE] [--only KIND]`.

On positions from seeds not used in training, the mean log-loss of each unseen card's true
place for (a) room-proportional with the hard facts, (b) today's inference (its marginals
estimated from `--samples` deals drawn by `infer` + `sample_world`, smoothed towards (a)
by the best of a few pseudo-counts, in its favour), (c) the learned model; split by the
viewer's side and by trick (1–6, 7–12, 13–25). Then the mean absolute error of each hidden
seat's expected trump count and side-suit lengths, and calibration (expected calibration
error over ten bins, and the bins of (c)). Passes when (c) ≤ `--ratio` × (b) on tricks
1–12 for both sides. Prints a report; `--json FILE` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engine.ai.belief import WEIGHTS_PATH
from tools.belief_fit import Data, load, log_loss, logits, probabilities, subset

BUCKETS = ((1, 6), (7, 12), (13, 25), (1, 12))
SIDES = ("declaring", "defending")


def expected_counts(data: Data, probs: np.ndarray) -> np.ndarray:
    """(P, 3, 5): each hidden seat's expected cards of each effective suit."""
    out = data.fixed.astype(np.float64).copy()
    copies = data.counts.sum(axis=1)
    for r in range(3):
        np.add.at(out[:, r, :], (data.row_pos, data.suit.astype(np.int64)),
                  probs[:, r] * copies)
    return out


def calibration(data: Data, probs: np.ndarray, bins: int = 10
                ) -> tuple[float, list[tuple[float, float, float]]]:
    """The expected calibration error and, per bin, (mean predicted, observed, weight)."""
    copies = np.repeat(data.counts.sum(axis=1, keepdims=True), probs.shape[1], axis=1)
    observed = data.counts / np.maximum(copies, 1)
    keep = data.mask
    p, o, w = probs[keep], observed[keep], copies[keep]
    which = np.minimum((p * bins).astype(int), bins - 1)
    total = w.sum()
    ece = 0.0
    table = []
    for b in range(bins):
        sel = which == b
        weight = w[sel].sum()
        if weight == 0:
            continue
        mean_p = float((p[sel] * w[sel]).sum() / weight)
        mean_o = float((o[sel] * w[sel]).sum() / weight)
        ece += float(weight / total) * abs(mean_p - mean_o)
        table.append((round(mean_p, 4), round(mean_o, 4), round(float(weight / total), 4)))
    return ece, table


def gate(data: Data, weights: np.ndarray, samples: int, ratio: float) -> dict[str, Any]:
    """Every figure of the gate (see the module docstring)."""
    pa = probabilities(data, None)
    pc = probabilities(data, logits(data, weights))
    models: dict[str, np.ndarray] = {"a": pa, "c": pc}
    alpha = None
    if data.sampled is not None:
        best = None
        for a in (0.25, 0.5, 1.0, 2.0):
            pb = (data.sampled * samples + a * pa) / (samples + a)
            loss = log_loss(data, pb)
            if best is None or loss < best[0]:
                best, alpha = (loss, pb), a
        assert best is not None
        models["b"] = best[1]
    if data.learned is not None:
        models["c-sampled"] = (data.learned * samples + (alpha or 0.5) * pa) / (
            samples + (alpha or 0.5))
    out: dict[str, Any] = {"positions": len(data.pos_side), "rows": len(data.d),
                           "copies": int(data.counts.sum()), "b_pseudo_count": alpha,
                           "log_loss": {}, "passes": True}
    row_side = data.pos_side[data.row_pos]
    row_trick = data.pos_trick[data.row_pos]
    for s, side in enumerate(SIDES):
        for lo, hi in BUCKETS:
            rows = (row_side == s) & (row_trick >= lo) & (row_trick <= hi)
            key = f"{side} {lo}-{hi}"
            cell = {name: round(log_loss(data, p, rows), 4) for name, p in models.items()}
            cell["positions"] = int(((data.pos_side == s) & (data.pos_trick >= lo)
                                     & (data.pos_trick <= hi)).sum())
            if "b" in cell:
                cell["c/b"] = round(cell["c"] / cell["b"], 4)
                if (lo, hi) == (1, 12) and cell["c/b"] > ratio:
                    out["passes"] = False
            out["log_loss"][key] = cell
    out["log_loss"]["all"] = {name: round(log_loss(data, p), 4) for name, p in models.items()}
    errors: dict[str, Any] = {}
    for name, p in models.items():
        expected = expected_counts(data, p)
        diff = np.abs(expected - data.truth)
        errors[name] = {"trumps": round(float(diff[:, :, 4].mean()), 4),
                        "side_suits": round(float(diff[:, :, :4].mean()), 4)}
    out["count_error"] = errors
    out["calibration_ece"] = {name: round(float(calibration(data, p)[0]), 4)
                              for name, p in models.items()}
    out["calibration_c"] = calibration(data, pc)[1]
    return out


def report(figures: dict[str, Any]) -> str:
    lines = [f"{figures['positions']} positions, {figures['copies']} unseen card copies; "
             f"(b) pseudo-count {figures['b_pseudo_count']}",
             f"{'split':<22}{'pos':>7}{'(a)':>8}{'(b)':>8}{'(c)':>8}{'c/b':>8}"
             f"{'(c) sampled':>12}"]
    for key, cell in figures["log_loss"].items():
        lines.append(f"{key:<22}{cell.get('positions', ''):>7}{cell['a']:>8}"
                     f"{cell.get('b', ''):>8}{cell['c']:>8}{cell.get('c/b', ''):>8}"
                     f"{cell.get('c-sampled', ''):>12}")
    for name, e in figures["count_error"].items():
        lines.append(f"({name}) mean abs error: trumps {e['trumps']}, side-suit lengths "
                     f"{e['side_suits']}; calibration error {figures['calibration_ece'][name]}")
    lines.append("calibration of (c) (predicted, observed, share): "
                 + " ".join(str(b) for b in figures["calibration_c"]))
    lines.append("PASSES" if figures["passes"] else "FAILS")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.belief_gate", description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--weights", default=str(WEIGHTS_PATH))
    parser.add_argument("--only", default=None, help="only deals where team B is this kind")
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--ratio", type=float, default=0.95)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", default=None)
    parser.add_argument("--cache", default=None,
                        help="keep the loaded positions (and sampled marginals) in this file")
    parser.add_argument("--temper", type=float, default=None,
                        help="also deals drawn from the model tempered so ('c-sampled')")
    args = parser.parse_args(argv)
    with open(args.weights, encoding="utf-8") as handle:
        weights = np.asarray(json.load(handle)["W"])
    if args.cache and Path(args.cache).exists():
        with open(args.cache, "rb") as handle:
            data = pickle.load(handle)
    else:
        data = load(args.data, samples=args.samples, jobs=args.jobs,
                    limit=args.limit, temper=args.temper)
        if args.cache:
            with open(args.cache, "wb") as handle:
                pickle.dump(data, handle)
    if args.only is not None:
        data = subset(data, [b == args.only for b in data.pos_b])
    figures = gate(data, weights, args.samples, args.ratio)
    sys.stdout.write(report(figures) + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(figures, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
