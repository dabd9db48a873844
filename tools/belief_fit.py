"""Fit the card-location model (issue 30): `python -m tools.belief_fit --data TRAIN.jsonl.gz
[--leave-out KIND] [--out engine/ai/belief_weights.json]`.

Reads positions from `tools.belief_data`, builds the model's inputs with
`engine.ai.belief.position` (the same code the players run), and fits the factored
logistic model's weights `W[side][place]` by full-batch Adam on the mean log-loss of each
unseen card's true place (numpy, the `train` extra), with a little L2. Deterministic.
`load` (the inputs as arrays, with the labels) also serves `tools.belief_gate`.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from engine.ai.belief import (
    CARD_FEATURES,
    PLACE_FEATURES,
    PLACES,
    WEIGHTS_PATH,
    learned_belief,
    position,
)
from engine.ai.context import Knowledge
from engine.ai.inference import KITTY, Belief, infer, sample_world
from engine.ai.montecarlo import place_known
from engine.cards import card_of_code
from tools.belief_data import read, seen_from_dict


def relative(me: int, where: int) -> int:
    """The relative place (0 left, 1 partner, 2 right, 3 kitty) of absolute `where`."""
    return 3 if where == KITTY else (where - me - 1) % 4


@dataclass(slots=True)
class Data:
    """Rows (one per distinct card still to place in a position) and positions."""

    d: np.ndarray  # (N, CARD_FEATURES)
    h: np.ndarray  # (N, PLACES, PLACE_FEATURES): the row's place features for its suit
    side: np.ndarray  # (N,) 0 declaring, 1 defending
    mask: np.ndarray  # (N, PLACES) allowed
    logroom: np.ndarray  # (N, PLACES)
    counts: np.ndarray  # (N, PLACES): copies truly at each place
    row_pos: np.ndarray  # (N,) position index
    suit: np.ndarray  # (N,)
    sampled: np.ndarray | None  # (N, PLACES) marginals of today's inference (sampled)
    learned: np.ndarray | None  # (N, PLACES) marginals of deals drawn from the model
    pos_side: np.ndarray  # (P,)
    pos_trick: np.ndarray  # (P,) 1-based trick number
    pos_b: list[str]  # (P,) team B's kind
    fixed: np.ndarray  # (P, 3, 5): cards of each hidden seat known placed, by suit
    truth: np.ndarray  # (P, 3, 5): cards each hidden seat truly holds, by suit


def _record(args: tuple[dict[str, Any], int, float | None]) -> dict[str, Any] | None:
    record, samples, temper = args
    seen = seen_from_dict(record["seen"])
    k = Knowledge.of(seen)
    pos = position(k)
    if not pos.cards:
        return None
    me = seen.seat
    trump = seen.trump
    _, fixed, _ = place_known(k)
    truth: list[Counter[int]] = [Counter(h) for h in record["hands"]]
    truth.append(Counter(record["kitty"]) if seen.kitty is None else Counter())
    counts = []
    for card in pos.cards:
        places = [w for w in range(5) if w != me for _ in range(truth[w][card.code])]
        for w in range(4):
            for _ in range(sum(1 for c in fixed[w] if c == card)):
                places.remove(w if w in places else places[0])
        row = [0] * PLACES
        for w in places:
            row[relative(me, w)] += 1
        counts.append(row)
    fixed_by = [[0] * 5 for _ in range(3)]
    truth_by = [[0] * 5 for _ in range(3)]
    for r in range(3):
        w = (me + 1 + r) % 4
        for c in fixed[w]:
            fixed_by[r][trump.suit_index(c)] += 1
        for code, n in truth[w].items():
            truth_by[r][trump.suit_index(card_of_code(code))] += n
    sampled = learned = None
    if samples:
        sampled = _sampled(infer(k), pos.cards, fixed, samples, record)
        if temper is not None:
            learned = _sampled(learned_belief(k, temper), pos.cards, fixed, samples, record)
    f32 = np.float32
    n = len(pos.cards)
    return {
        "d": np.asarray(pos.d, f32),
        "h": np.asarray([[pos.h[p][s] for p in range(PLACES)] for s in pos.suits], f32),
        "side": np.full(n, pos.side, np.int8), "mask": np.asarray(pos.allowed, bool),
        "logroom": np.tile(np.log(np.maximum(pos.room, 1)).astype(f32), (n, 1)),
        "counts": np.asarray(counts, f32), "suit": np.asarray(pos.suits, np.int8),
        "sampled": None if sampled is None else np.asarray(sampled),
        "learned": None if learned is None else np.asarray(learned),
        "trick": len(seen.tricks) + 1, "b": record["b"], "fixed": fixed_by,
        "truth": truth_by,
    }


def _sampled(belief: Belief, cards: Sequence[Any], fixed: list[list[Any]], samples: int,
             record: dict[str, Any]) -> list[list[float]]:
    """Each card's share of copies at each relative place over `samples` deals drawn from
    `belief` by `sample_world` (today's inference: `infer`)."""
    k = belief.k
    me = k.seen.seat
    rng = random.Random(f"belief-gate:{record['deal']}:{me}:{len(k.seen.tricks)}")
    index = {c.code: i for i, c in enumerate(cards)}
    pool = Counter(c for c in k.unseen.elements())
    for hand in fixed:
        pool.subtract(hand)
    total = [[0.0] * PLACES for _ in cards]
    for _ in range(samples):
        sim = sample_world(belief, rng)
        left = Counter({c: n for c, n in pool.items() if n > 0})
        for w in range(4):
            if w == me:
                continue
            held = Counter(sim.hands[w])
            held.subtract(fixed[w])
            for card, n in held.items():
                if n > 0 and card.code in index:
                    total[index[card.code]][relative(me, w)] += n
                    left[card] -= n
        for card, n in left.items():
            if n > 0 and card.code in index:
                total[index[card.code]][3] += n
    return [[x / sum(row) if sum(row) else 0.0 for x in row] for row in total]


def load(path: str, leave_out: str | None = None, only: str | None = None,
         samples: int = 0, jobs: int = 1, limit: int | None = None,
         temper: float | None = None) -> Data:
    """The rows of every position in `path` (skipping deals where team B is `leave_out`,
    or keeping only those where it is `only`); with `samples`, also today's inference's
    sampled marginals (and with `temper`, those of deals drawn from the shipped model)."""
    def wanted() -> Iterable[tuple[dict[str, Any], int, float | None]]:
        n = 0
        for record in read(path):
            if record["b"] == leave_out or (only is not None and record["b"] != only):
                continue
            if limit is not None and n >= limit:
                return
            n += 1
            yield record, samples, temper

    parts: dict[str, list[Any]] = {k: [] for k in (
        "d", "h", "side", "mask", "logroom", "counts", "suit", "sampled", "learned",
        "row_pos")}
    pos_side: list[int] = []
    pos_trick: list[int] = []
    pos_b: list[str] = []
    fixed: list[Any] = []
    truth: list[Any] = []
    mapper: Callable[..., Iterable[dict[str, Any] | None]]
    pool = Pool(jobs) if jobs > 1 else None
    mapper = pool.imap if pool is not None else map
    for out in mapper(_record, wanted(), *(() if pool is None else (64,))):
        if out is None:
            continue
        n = len(out["d"])
        index = len(pos_side)
        for key in ("d", "h", "side", "mask", "logroom", "counts", "suit"):
            parts[key].append(out[key])
        parts["row_pos"].append(np.full(n, index, np.int32))
        for key in ("sampled", "learned"):
            if out[key] is not None:
                parts[key].append(out[key])
        pos_side.append(int(out["side"][0]))
        pos_trick.append(out["trick"])
        pos_b.append(out["b"])
        fixed.append(out["fixed"])
        truth.append(out["truth"])
    if pool is not None:
        pool.close()
    f32 = np.float32

    def joined(key: str) -> Any:
        return np.concatenate(parts[key]) if parts[key] else None

    return Data(
        d=joined("d"), h=joined("h"), side=joined("side"), mask=joined("mask"),
        logroom=joined("logroom"), counts=joined("counts"), row_pos=joined("row_pos"),
        suit=joined("suit"), sampled=joined("sampled"), learned=joined("learned"),
        pos_side=np.asarray(pos_side, np.int8), pos_trick=np.asarray(pos_trick, np.int16),
        pos_b=pos_b, fixed=np.asarray(fixed, f32), truth=np.asarray(truth, f32))


def subset(data: Data, keep: Sequence[bool]) -> Data:
    """The positions of `data` where `keep` holds."""
    pos_keep = np.asarray(keep, bool)
    new_index = np.cumsum(pos_keep) - 1
    rows = pos_keep[data.row_pos]

    def cut(a: np.ndarray | None) -> np.ndarray | None:
        return None if a is None else a[rows]

    return Data(
        d=data.d[rows], h=data.h[rows], side=data.side[rows], mask=data.mask[rows],
        logroom=data.logroom[rows], counts=data.counts[rows],
        row_pos=new_index[data.row_pos[rows]].astype(np.int32), suit=data.suit[rows],
        sampled=cut(data.sampled), learned=cut(data.learned),
        pos_side=data.pos_side[pos_keep], pos_trick=data.pos_trick[pos_keep],
        pos_b=[b for b, k in zip(data.pos_b, keep, strict=True) if k],
        fixed=data.fixed[pos_keep], truth=data.truth[pos_keep])


def logits(data: Data, weights: np.ndarray) -> np.ndarray:
    """The model's log-factor of each row at each place (room and hard facts aside)."""
    out = np.zeros(data.mask.shape, np.float64)
    for side in (0, 1):
        rows = data.side == side
        d = data.d[rows]
        for p in range(PLACES):
            out[rows, p] = np.einsum("nk,nk->n", d @ weights[side, p], data.h[rows, p])
    return out


def probabilities(data: Data, scores: np.ndarray | None) -> np.ndarray:
    """Each row's chance of each place: room × allowed × exp(score), normalised."""
    z = data.logroom.astype(np.float64) + (0.0 if scores is None else scores)
    z = np.where(data.mask, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    probs: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probs


def log_loss(data: Data, probs: np.ndarray, rows: np.ndarray | None = None) -> float:
    """Mean over card copies of -log(chance of the copy's true place)."""
    counts = data.counts if rows is None else data.counts[rows]
    p = probs if rows is None else probs[rows]
    total = counts.sum()
    with np.errstate(divide="ignore"):
        logs = np.where(counts > 0, np.log(np.maximum(p, 1e-12)), 0.0)
    return float(-(counts * logs).sum() / max(total, 1.0))


def fit(data: Data, steps: int = 200, rate: float = 0.05, l2: float = 1e-4,
        log: Callable[[str], None] | None = None) -> np.ndarray:
    """Weights minimising the mean log-loss (full-batch Adam, L2 `l2`)."""
    weights = np.zeros((2, PLACES, CARD_FEATURES, PLACE_FEATURES))
    m = np.zeros_like(weights)
    v = np.zeros_like(weights)
    parts = []
    for s in (0, 1):  # each side's rows, split once
        rows = data.side == s
        counts = data.counts[rows].astype(np.float64)
        z0 = np.where(data.mask[rows], data.logroom[rows].astype(np.float64), -np.inf)
        parts.append((data.d[rows].astype(np.float64),
                      [np.ascontiguousarray(data.h[rows, p], np.float64) for p in range(PLACES)],
                      counts, counts.sum(axis=1, keepdims=True), z0))
    copies = data.counts.sum()
    for step in range(1, steps + 1):
        grad = l2 * weights
        loss = 0.0
        for s, (d, hs, counts, total, z0) in enumerate(parts):
            z = z0 + np.stack([np.einsum("nk,nk->n", d @ weights[s, p], hs[p])
                               for p in range(PLACES)], axis=1)
            z -= z.max(axis=1, keepdims=True)
            e = np.exp(z)
            norm = e.sum(axis=1, keepdims=True)
            probs = e / norm
            loss -= float((counts * np.where(counts > 0, z - np.log(norm), 0.0)).sum())
            g = (probs * total - counts) / copies
            for p in range(PLACES):
                grad[s, p] += d.T @ (g[:, p, None] * hs[p])
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        lr = rate * min(1.0, 2.0 * (1 - step / (steps + 1)))  # decays over the second half
        weights -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if log is not None and (step % 25 == 0 or step == 1):
            log(f"step {step}: log-loss {loss / copies:.4f}")
    return weights


def save(weights: np.ndarray, path: Path, meta: dict[str, Any]) -> None:
    data = {"meta": meta, "W": np.round(weights, 5).tolist()}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.belief_fit", description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--leave-out", default=None, help="a B kind left out of training")
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="at most this many positions")
    parser.add_argument("--cache", default=None, help="keep the loaded positions in this file")
    parser.add_argument("--positions", type=int, default=None,
                        help="fit on the first this many positions (of those kept)")
    parser.add_argument("--rate", type=float, default=0.05, help="Adam's step size")
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    if args.cache and Path(args.cache).exists():
        with open(args.cache, "rb") as handle:
            data = pickle.load(handle)
    else:
        data = load(args.data, jobs=args.jobs, limit=args.limit)
        if args.cache:
            with open(args.cache, "wb") as sink:
                pickle.dump(data, sink)
    if args.leave_out is not None:
        data = subset(data, [b != args.leave_out for b in data.pos_b])
    if args.positions is not None:
        data = subset(data, [i < args.positions for i in range(len(data.pos_b))])
    log(f"{len(data.pos_side)} positions, {len(data.d)} rows, "
        f"{int(data.counts.sum())} card copies")
    base = log_loss(data, probabilities(data, None))
    log(f"room-proportional log-loss {base:.4f}")
    weights = fit(data, steps=args.steps, rate=args.rate, log=log)
    final = log_loss(data, probabilities(data, logits(data, weights)))
    log(f"fitted log-loss {final:.4f}")
    save(weights, Path(args.out), {
        "data": Path(args.data).name, "positions": len(data.pos_side),
        "leave_out": args.leave_out, "steps": args.steps, "rate": args.rate,
        "train_log_loss": round(final, 5), "room_log_loss": round(base, 5)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
