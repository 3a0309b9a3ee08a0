"""F.cross_entropy / F.softmax_with_cross_entropy configurations, shared by
tests/tools/make_cross_entropy_fixtures.py (PaddlePaddle 3.3.1 records the loss and the logits'
gradient of each) and tests/nn/test_cross_entropy_paddle.py (phiops computes them)."""

from __future__ import annotations

from typing import Any

import numpy as np

RNG = np.random.default_rng(7)
LOGITS = RNG.standard_normal((5, 4)).astype(np.float32)
HARD = np.array([0, 3, 1, 1, 2], np.int64)
SOFT = RNG.dirichlet(np.ones(4), 5).astype(np.float32)
WEIGHT = np.array([0.5, 2.0, 1.0, 3.0], np.float32)
LOGITS3 = RNG.standard_normal((2, 4, 3)).astype(np.float32)  # classes on axis 1
HARD3 = np.array([[0, 3, 2], [1, 1, 0]], np.int64)

# name -> (logits, label, keyword arguments of cross_entropy)
CASES: dict[str, tuple[np.ndarray, np.ndarray, dict[str, Any]]] = {
    "mean": (LOGITS, HARD, {}),
    "sum": (LOGITS, HARD, {"reduction": "sum"}),
    "none": (LOGITS, HARD, {"reduction": "none"}),
    "none_label_with_class_axis": (LOGITS, HARD[:, None], {"reduction": "none"}),
    "weight_mean": (LOGITS, HARD, {"weight": WEIGHT}),
    "weight_sum": (LOGITS, HARD, {"weight": WEIGHT, "reduction": "sum"}),
    "weight_none": (LOGITS, HARD, {"weight": WEIGHT, "reduction": "none"}),
    "weight_ignore_index": (LOGITS, HARD, {"weight": WEIGHT, "ignore_index": 1}),
    "ignore_index": (LOGITS, HARD, {"ignore_index": 1}),
    "ignore_index_none": (LOGITS, HARD, {"ignore_index": 1, "reduction": "none"}),
    "label_smoothing": (LOGITS, HARD, {"label_smoothing": 0.1}),
    "label_smoothing_weight": (LOGITS, HARD, {"label_smoothing": 0.2, "weight": WEIGHT}),
    "label_smoothing_none": (LOGITS, HARD, {"label_smoothing": 0.1, "reduction": "none"}),
    "soft": (LOGITS, SOFT, {"soft_label": True}),
    "soft_weight": (LOGITS, SOFT, {"soft_label": True, "weight": WEIGHT}),
    "soft_none": (LOGITS, SOFT, {"soft_label": True, "reduction": "none"}),
    "axis1": (LOGITS3, HARD3, {"axis": 1}),
    "axis1_weight": (LOGITS3, HARD3, {"axis": 1, "weight": WEIGHT}),
    "axis1_none": (LOGITS3, HARD3, {"axis": 1, "reduction": "none"}),
    "no_softmax": (np.abs(SOFT) + 0.05, HARD, {"use_softmax": False}),
}

# name -> (logits, label, keyword arguments of softmax_with_cross_entropy)
LEGACY: dict[str, tuple[np.ndarray, np.ndarray, dict[str, Any]]] = {
    "hard": (LOGITS, HARD[:, None], {}),
    "soft": (LOGITS, SOFT, {"soft_label": True}),
    "ignore_index": (LOGITS, HARD[:, None], {"ignore_index": 3}),
    "return_softmax": (LOGITS, HARD[:, None], {"return_softmax": True}),
}


def run(lib: Any, case: tuple[np.ndarray, np.ndarray, dict[str, Any]], legacy: bool) -> dict:
    """The loss (and softmax) and the logits' gradient of sum(loss) (eager)."""
    logits, label, kwargs = case
    x = lib.to_tensor(logits, stop_gradient=False)
    y = lib.to_tensor(label)
    kwargs = {k: lib.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    F = lib.nn.functional
    out = (F.softmax_with_cross_entropy if legacy else F.cross_entropy)(x, y, **kwargs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    lib.sum(outs[0]).backward()
    return {
        "loss": outs[0].numpy(),
        **({"softmax": outs[1].numpy()} if len(outs) > 1 else {}),
        "grad": x.grad.numpy(),
    }
