"""Training the linear move-scoring model (``durak learn train``, docs/learn.md).

The model scores each legal move by the sum of its active features' weights
and is trained as a conditional logit: a softmax over the legal moves of each
decision, fitted by cross-entropy to a target distribution that mixes the
engine's chosen move (weight ``1 - soft``) with a softmax of the engine's
per-move scores at temperature ``score_temp`` (weight ``soft``): policy
distillation of the hint engine.  Adam over minibatches of decisions, an L2
penalty, a seeded shuffle: the same data and seed give the same model.

Why numpy and not scikit-learn or PyTorch: the loss is a softmax over a
*varying* set of moves per decision with sparse binary inputs, which neither
scikit-learn's classifiers nor a plain logistic regression express, and
which takes sixty lines of numpy (``np.bincount`` for the sparse gradient,
``np.maximum.reduceat`` for the per-decision softmax); numpy is a 20 MB
wheel where PyTorch is 200 MB+.  It is only needed to train: the ``train``
extra (``pip install 'durak-solver[train]'``); the model file is JSON and the
core reads it without numpy.

The last ``valid`` share of the games (by game number) is held out: the
report gives the top-1 agreement with the engine there, and the greedy
player's agreement on the same decisions for comparison.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from solver.errors import OptionError
from solver.learn.generate import read_shards
from solver.policy.features import MAX_ACTIVE, NFEATURES
from solver.policy.model import LinearModel

_np: Any
try:  # the `train` extra: only training needs it
    import numpy as _np
except ImportError:  # pragma: no cover - without the extra
    _np = None

TRAIN_INSTALL = "pip install 'durak-solver[train]'"


def _numpy() -> Any:
    if _np is None:
        raise OptionError(f"durak learn train needs numpy: {TRAIN_INSTALL}")
    return _np


@dataclass(frozen=True)
class TrainSpec:
    epochs: int = 10
    seed: int = 0
    lr: float = 0.05
    l2: float = 1e-3
    batch: int = 512           # decisions per step
    soft: float = 0.0          # weight of the engine's scores in the target
    score_temp: float = 0.1    # their softmax temperature
    valid: float = 0.1         # share of the games held out
    min_pile: int = 0          # only decisions with at least this many cards in the pile


class Data:
    """Decisions as flat arrays: per move its feature indices (padded with
    ``NFEATURES``, a weight fixed at 0), per decision its first move."""

    def __init__(self, rows: Sequence[dict[str, Any]], spec: TrainSpec):
        np = _numpy()
        feats: list[list[int]] = []
        starts, targets, chosen, greedy, games = [], [], [], [], []
        for r in rows:
            n = len(r["moves"])
            starts.append(len(feats))
            for f in r["features"]:
                feats.append(list(f) + [NFEATURES] * (MAX_ACTIVE - len(f)))
            sc = r["scores"]
            hi = max(sc)
            e = [math.exp((x - hi) / spec.score_temp) for x in sc]
            z = sum(e)
            q = [spec.soft * x / z for x in e]
            q[r["chosen"]] += 1 - spec.soft
            targets.extend(q)
            chosen.append(r["chosen"])
            greedy.append(r["greedy"])
            games.append(r["game"])
            assert n == len(r["features"])
        self.F = np.array(feats, dtype=np.int64).reshape(-1, MAX_ACTIVE)
        self.starts = np.array(starts, dtype=np.int64)
        self.q = np.array(targets, dtype=np.float64)
        self.chosen = np.array(chosen, dtype=np.int64)
        self.greedy = np.array(greedy, dtype=np.int64)
        self.games = np.array(games, dtype=np.int64)
        self.ends = np.append(self.starts[1:], len(self.F))

    def __len__(self) -> int:
        return len(self.starts)

    def subset(self, idx: Any) -> "Data":
        """The decisions ``idx`` as a Data of their own."""
        np = _numpy()
        out = Data.__new__(Data)
        pieces = [np.arange(self.starts[i], self.ends[i]) for i in idx]
        moves = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
        lens = self.ends[idx] - self.starts[idx]
        out.F = self.F[moves]
        out.q = self.q[moves]
        out.starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
        out.ends = out.starts + lens
        out.chosen, out.greedy, out.games = self.chosen[idx], self.greedy[idx], self.games[idx]
        return out

    def scores(self, w: Any) -> Any:
        return w[self.F].sum(axis=1)

    def loss_grad(self, w: Any, l2: float) -> tuple[float, Any]:
        """Mean cross-entropy over the decisions (plus the L2 term) and its gradient."""
        np = _numpy()
        s = self.scores(w)
        mx = np.maximum.reduceat(s, self.starts)
        seg = np.repeat(np.arange(len(self.starts)), self.ends - self.starts)
        e = np.exp(s - mx[seg])
        z = np.add.reduceat(e, self.starts)
        p = e / z[seg]
        logp = s - mx[seg] - np.log(z[seg])
        n = len(self.starts)
        loss = -float((self.q * logp).sum()) / n + l2 * float((w * w).sum())
        d = (p - self.q) / n
        g = np.bincount(self.F.ravel(), weights=np.repeat(d, MAX_ACTIVE),
                        minlength=NFEATURES + 1)
        g += 2 * l2 * w
        g[NFEATURES] = 0.0
        return loss, g

    def agreement(self, w: Any) -> tuple[float, float]:
        """The share of decisions whose best-scoring move is the engine's, and the
        share whose greedy move is."""
        np = _numpy()
        s = self.scores(w)
        best = np.array([int(np.argmax(s[a:b])) for a, b in zip(self.starts, self.ends)])
        n = max(1, len(self.starts))
        return float((best == self.chosen).sum()) / n, float((self.greedy == self.chosen).sum()) / n


def load_rows(folders: Sequence[str | Path], min_pile: int = 0) -> list[dict[str, Any]]:
    rows = []
    for k, f in enumerate(folders):
        for r in read_shards(f):
            if r["pile"] >= min_pile:
                r["game"] = r["game"] + k * 1_000_000_000  # folders' games apart
                rows.append(r)
    if not rows:
        raise OptionError("no training examples in the data")
    return rows


def train(folders: Sequence[str | Path], spec: TrainSpec = TrainSpec(),
          log: Callable[[str], None] | None = None) -> tuple[LinearModel, dict[str, Any]]:
    """Fit the model on the data folders; returns it and a report."""
    np = _numpy()
    t0 = time.time()
    rows = load_rows(folders, spec.min_pile)
    data = Data(rows, spec)
    games = np.unique(data.games)
    cut = games[int(len(games) * (1 - spec.valid))] if spec.valid > 0 and len(games) > 1 \
        else games[-1] + 1
    tr = data.subset(np.nonzero(data.games < cut)[0])
    va = data.subset(np.nonzero(data.games >= cut)[0])
    rng = np.random.default_rng(spec.seed)
    w = np.zeros(NFEATURES + 1)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, step = 0.9, 0.999, 0
    order = np.arange(len(tr))
    history = []
    for epoch in range(spec.epochs):
        rng.shuffle(order)
        for a in range(0, len(order), spec.batch):
            batch = tr.subset(np.sort(order[a:a + spec.batch]))
            _, g = batch.loss_grad(w, spec.l2)
            step += 1
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            w -= spec.lr * (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + 1e-8)
            w[NFEATURES] = 0.0
        tl, _ = tr.loss_grad(w, spec.l2)
        vl = va.loss_grad(w, spec.l2)[0] if len(va) else float("nan")
        history.append({"epoch": epoch + 1, "train_loss": round(tl, 5),
                        "valid_loss": round(vl, 5)})
        if log:
            log(f"epoch {epoch + 1}: train loss {tl:.4f}, valid loss {vl:.4f}")
    acc_tr, greedy_tr = tr.agreement(w)
    acc_va, greedy_va = va.agreement(w) if len(va) else (float("nan"), float("nan"))
    report = {"examples": len(data), "train": len(tr), "valid": len(va),
              "agreement_train": round(acc_tr, 4), "agreement_valid": round(acc_va, 4),
              "greedy_agreement_train": round(greedy_tr, 4),
              "greedy_agreement_valid": round(greedy_va, 4),
              "history": history, "seconds": round(time.time() - t0, 1)}
    trained = {"data": [str(f) for f in folders], "seed": spec.seed, "epochs": spec.epochs,
               "lr": spec.lr, "l2": spec.l2, "batch": spec.batch, "soft": spec.soft,
               "score_temp": spec.score_temp, "examples": len(data),
               "agreement_valid": report["agreement_valid"]}
    model = LinearModel(tuple(float(x) for x in w[:NFEATURES]), 0.0, trained)
    return model, report


__all__ = ["TRAIN_INSTALL", "TrainSpec", "train"]
